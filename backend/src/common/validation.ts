import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { FieldValidationException } from './errors.js';

/**
 * Validates request DTOs: unknown fields are dropped, the first failing rule per field gives
 * its message, and the result is a 400 with one message per field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) => new FieldValidationException(collectMessages(errors)),
  });
}

function collectMessages(errors: ValidationError[], prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const error of errors) {
    const path = prefix + error.property;
    const first = Object.values(error.constraints ?? {})[0];
    if (first) fields[path] = first;
    Object.assign(fields, collectMessages(error.children ?? [], `${path}.`));
  }
  return fields;
}

/** Trims surrounding white space from string input; other types pass through for the type check. */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
