import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { dependencyErrorAnswer } from './dependency-errors.js';
import type { ErrorEnvelope } from './envelope.js';
import { DetailedHttpException, FieldValidationException, TooManyRequestsException } from './errors.js';
import { MethodNotAllowedException } from './method-not-allowed.js';
import { PATH_PART_TOO_LONG } from './path-limits.js';

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
}

/**
 * Renders every error as the spec's envelope. Client mistakes that Fastify itself detects
 * (bad JSON, oversized body, wrong content type) keep their 4xx status with a clear message;
 * what a request meets in the database or queue gets its own status (404, 409, 503: see
 * dependency-errors.ts); anything unexpected is logged with the request id and answered with a
 * generic 500.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(private readonly bodyLimitBytes: number) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    // The client went away mid-request (Node's "aborted"): no one is left to answer, and the
    // onRequestAbort hook has logged it in one line.
    if (isClientAbort(exception)) return;
    const [status, body] = this.render(exception, request);
    if (status === HttpStatus.SERVICE_UNAVAILABLE && !(exception instanceof HttpException)) {
      this.logger.warn(`${request.method} ${request.url} [${request.id}] answered 503: ${String(exception)}`);
    } else if (!(exception instanceof HttpException) && status >= 500) {
      this.logger.error(
        `${request.method} ${request.url} [${request.id}] failed`,
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    if (exception instanceof TooManyRequestsException && exception.retryAfterSeconds !== undefined) {
      void reply.header('retry-after', String(exception.retryAfterSeconds));
    }
    if (exception instanceof MethodNotAllowedException) void reply.header('allow', exception.allowed.join(', '));
    void reply.status(status).header('cache-control', 'no-store').send(body);
  }

  private render(exception: unknown, request: FastifyRequest): [number, ErrorEnvelope] {
    const bodyError = this.renderBodyError(fastifyErrorOf(exception));
    if (bodyError) return bodyError;
    if (exception instanceof FieldValidationException) {
      return [HttpStatus.BAD_REQUEST, { success: false, error: exception.message, fields: exception.fields }];
    }
    if (exception instanceof DetailedHttpException) {
      return [exception.getStatus(), { success: false, error: exception.message, details: exception.details }];
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === HttpStatus.NOT_FOUND && exception.message.startsWith('Cannot ')) {
        return [status, { success: false, error: `No API endpoint at ${request.method} ${request.url.split('?')[0]}` }];
      }
      return [status, { success: false, error: messageOf(exception) }];
    }
    const dependencyAnswer = dependencyErrorAnswer(exception);
    if (dependencyAnswer) return [dependencyAnswer[0], { success: false, error: dependencyAnswer[1] }];
    return [HttpStatus.INTERNAL_SERVER_ERROR, { success: false, error: 'Something went wrong on our side. Please try again.' }];
  }

  /** Client mistakes Fastify detects while reading the body, with messages a client can act on. */
  private renderBodyError(error: FastifyLikeError | undefined): [number, ErrorEnvelope] | undefined {
    switch (error?.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return [413, { success: false, error: `Request body is too large (the limit is ${this.bodyLimitBytes} bytes).` }];
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return [415, { success: false, error: 'Unsupported content type; send JSON with Content-Type: application/json.' }];
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return [400, { success: false, error: 'Request body is empty; send a JSON object.' }];
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return [400, { success: false, error: 'Request body is not valid JSON.' }];
    }
    if (error?.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return [error.statusCode, { success: false, error: error.message ?? 'Bad request.' }];
    }
    return undefined;
  }
}

/** Fastify's own error, whether raw or wrapped by Nest as an HttpException's cause. */
function fastifyErrorOf(exception: unknown): FastifyLikeError | undefined {
  const candidate = exception instanceof HttpException ? exception.cause : exception;
  const error = candidate as FastifyLikeError | undefined;
  return typeof error?.code === 'string' && error.code.startsWith('FST_') ? error : undefined;
}

function isClientAbort(exception: unknown): boolean {
  const { code, message } = (exception ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' && message === 'aborted';
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join(', ');
  return typeof message === 'string' ? message : exception.message;
}

/**
 * Fastify's own refusals of a URL, before any route or filter runs (`frameworkErrors`): a path
 * parameter that is not properly percent-encoded, or one too long. Answered in the envelope like
 * every other client mistake, not in Fastify's own body.
 */
export function renderFrameworkError(error: FastifyLikeError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, PATH_PART_TOO_LONG]
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'A part of the path is not properly percent-encoded.']
        : [error.statusCode ?? 400, error.message ?? 'Bad request.'];
  const body: ErrorEnvelope = { success: false, error: message };
  void reply.status(status).header('cache-control', 'no-store').send(body);
}
