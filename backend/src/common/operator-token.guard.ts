import { type CanActivate, type ExecutionContext, Inject, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.js';

/**
 * Lets through requests carrying `Authorization: Bearer <OPERATOR_TOKEN>`. Without OPERATOR_TOKEN
 * the guarded endpoints do not exist (404, like any unknown path), so a deployment that never
 * set one exposes nothing; with it, a missing or wrong token gets 401.
 */
@Injectable()
export class OperatorTokenGuard implements CanActivate {
  private readonly expected: Buffer | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = config.operatorToken === undefined ? undefined : digest(config.operatorToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!this.expected) throw new NotFoundException(`Cannot ${request.method} ${request.url}`); // rendered as "No API endpoint at ..."
    if (bearerMatches(request.headers.authorization, this.expected)) return true;
    void context.switchToHttp().getResponse<FastifyReply>().header('www-authenticate', 'Bearer realm="operator"');
    throw new UnauthorizedException('This endpoint needs the operator token: send Authorization: Bearer <OPERATOR_TOKEN>.');
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether an Authorization header carries the operator token (for endpoints outside Nest, e.g. the worker's /metrics). */
export function carriesOperatorToken(authorization: string | undefined, token: string): boolean {
  return bearerMatches(authorization, digest(token));
}

function bearerMatches(authorization: string | undefined, expected: Buffer): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  // Digests compared in constant time: neither the token's content nor its length leaks through timing.
  return given !== undefined && timingSafeEqual(digest(given), expected);
}
