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
  await withoutHooks(fastify, SAVED_FILE_HOOKS, () =>
    fastify.register(fastifyMultipart, {
      throwFileSizeLimit: true,
      limits: { files: 1, fileSize: 1, fields: 0, parts: 1, fieldSize: 1_000, headerPairs: 20 },
    }),
  );
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    const type = request.headers['content-type'];
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (typeof type === 'string' && /^\s*multipart\//i.test(type) && config?.[ACCEPTS_FILES] !== true) {
      done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(type));
      return;
    }
    done(null, payload);
  });
}

/**
 * @fastify/multipart's onRequest and onResponse hooks delete the temporary files of saveRequestFiles(),
 * which we never call (uploads are read into memory, images/uploaded-files.ts). They are async and ran
 * on every request of the site, pages and API alike, for nothing: they are left out.
 */
const SAVED_FILE_HOOKS: ReadonlySet<string> = new Set(['onRequest', 'onResponse']);

/** Runs `register` (a plugin's registration) with the hooks it adds of the kinds in `dropped` left out. */
async function withoutHooks(fastify: FastifyInstance, dropped: ReadonlySet<string>, register: () => PromiseLike<unknown>) {
  const addHook = fastify.addHook;
  fastify.addHook = function (this: FastifyInstance, name: string, ...rest: unknown[]) {
    return dropped.has(name) ? this : (addHook as (...args: unknown[]) => FastifyInstance).call(this, name, ...rest);
  } as typeof fastify.addHook;
  try {
    await register();
  } finally {
    fastify.addHook = addHook;
  }
}
