import { type INestApplication, RequestMethod } from '@nestjs/common';

/** Routes that are not API calls but files (and Prometheus's /metrics): no /api prefix, no envelope, no /api request checks. */
export const FILE_ROUTES = [
  { path: 'media/images/:id/:file', method: RequestMethod.GET },
  { path: 'metrics', method: RequestMethod.GET },
];

/** Every controller answers under /api, except the FILE_ROUTES. */
export function useApiPrefix(app: INestApplication): void {
  app.setGlobalPrefix('api', { exclude: FILE_ROUTES });
}
