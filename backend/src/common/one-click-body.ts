import { RouteConfig } from '@nestjs/platform-fastify';
import { errorCodes, type FastifyInstance } from 'fastify';

const ONE_CLICK = 'oneClickUnsubscribe';

/**
 * Marks the route a mail app POSTs to when its reader unsubscribes (RFC 8058 one-click:
 * `List-Unsubscribe=One-Click`, form-encoded): the one route outside uploads that takes a body other
 * than JSON. Its token is in the URL; the form's one field says nothing more.
 */
export const AcceptsOneClickUnsubscribe = () => RouteConfig({ [ONE_CLICK]: true });

/** Installs the form parser (after acceptJsonBodiesOnly) for one-click routes; every other route keeps answering 415 to a form. */
export function acceptOneClickUnsubscribe(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1_024 }, (request, body, done) => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (config?.[ONE_CLICK] !== true) {
      done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type'] ?? ''), undefined);
      return;
    }
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
