import fastifyMultipart from '@fastify/multipart';
import { RouteConfig } from '@nestjs/platform-fastify';
import { errorCodes, type FastifyInstance } from 'fastify';

const ACCEPTS_FILES = 'acceptsFiles';

/** Marks the one kind of route that takes multipart/form-data (file uploads); every other route keeps answering 415. */
export const AcceptsFiles = () => RouteConfig({ [ACCEPTS_FILES]: true });

/**
 * Installs the multipart parser (after acceptJsonBodiesOnly) and refuses a multipart body, with
 * the same 415 as any other non-JSON body, on every route not marked @AcceptsFiles(). The check
 * runs before the body is read. The defaults are tight; an upload route passes its own limits.
 */
export async function acceptMultipartOnFileRoutes(fastify: FastifyInstance): Promise<void> {
  await fastify.register(fastifyMultipart, {
    throwFileSizeLimit: true,
    limits: { files: 1, fileSize: 1, fields: 0, parts: 1, fieldSize: 1_000, headerPairs: 20 },
  });
  fastify.addHook('preParsing', async (request) => {
    const type = request.headers['content-type'];
    if (typeof type !== 'string' || !/^\s*multipart\//i.test(type)) return;
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (config?.[ACCEPTS_FILES] !== true) throw new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(type);
  });
}
