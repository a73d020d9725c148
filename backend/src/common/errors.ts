import { HttpException, HttpStatus } from '@nestjs/common';

/** A 400 carrying one message per invalid field; the filter renders it with `fields`. */
export class FieldValidationException extends HttpException {
  constructor(readonly fields: Record<string, string>) {
    super(Object.values(fields).join(', '), HttpStatus.BAD_REQUEST);
  }
}

export class TooManyRequestsException extends HttpException {
  /** `retryAfterSeconds`: sent as Retry-After, so a client knows when to try again. */
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** An HTTP error whose envelope also carries machine-readable `details`. */
export class DetailedHttpException extends HttpException {
  constructor(
    message: string,
    status: HttpStatus,
    readonly details: unknown,
  ) {
    super(message, status);
  }
}
