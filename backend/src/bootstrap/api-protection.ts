import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { acceptJsonBodiesOnly } from '../common/json-body.js';

/**
 * What every request meets before a controller: JSON-only bodies whose size and shape are
 * bounded (common/json-body.ts).
 */
export function protectApi(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  acceptJsonBodiesOnly(fastify);
}
