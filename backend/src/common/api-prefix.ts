import { type INestApplication, RequestMethod } from '@nestjs/common';

/** Routes that are not API calls but files (and Prometheus's /metrics): no /api prefix, no envelope, no /api request checks. */
export const FILE_ROUTES = [
  { path: 'media/images/:id/:file', method: RequestMethod.GET },
  { path: 'metrics', method: RequestMethod.GET },
];

const FILE_ROUTE_PATTERNS = FILE_ROUTES.map(({ path }) => new RegExp(`^/${path.replace(/:\w+/g, '[^/]+')}/?$`));

/** Whether a request's URL is one of the FILE_ROUTES (which sit outside /api). */
export function isFileRouteUrl(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return FILE_ROUTE_PATTERNS.some((pattern) => pattern.test(path));
}

/** Every controller answers under /api, except the FILE_ROUTES. */
export function useApiPrefix(app: INestApplication): void {
  app.setGlobalPrefix('api', { exclude: FILE_ROUTES });
}
