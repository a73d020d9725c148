import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * The caller's address as Fastify resolved it: with TRUST_PROXY, the address the nearest trusted
 * proxy saw (the right-most untrusted X-Forwarded-For entry), never one the client wrote itself.
 */
export const ClientIp = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<FastifyRequest>().ip;
});
