import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The caller's address as Fastify resolved it (honours TRUST_PROXY). */
export const ClientIp = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  return context.switchToHttp().getRequest<FastifyRequest>().ip;
});
