import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { ok, type SuccessEnvelope } from './envelope.js';

/** Wraps every controller result in `{ success: true, data }`. */
@Injectable()
export class EnvelopeInterceptor<T> implements NestInterceptor<T, SuccessEnvelope<T> | undefined> {
  intercept(_context: ExecutionContext, next: CallHandler<T>): Observable<SuccessEnvelope<T> | undefined> {
    return next.handle().pipe(map((data) => (data === undefined ? undefined : ok(data))));
  }
}
