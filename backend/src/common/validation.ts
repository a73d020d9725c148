import { applyDecorators, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { passwordError } from '../contracts/account.js';
import { textFieldError, trimText, type TextRule } from '../contracts/text-rules.js';
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

/**
 * A text field validated by a shared rule (contracts/): trimmed, then checked by the same function
 * the browser's form uses, so the API answers with the form's own message. Also documents the
 * field in the OpenAPI contract.
 */
export function TextField(rule: TextRule, docs: { example?: string } = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: 'string',
      required: !rule.optional,
      maxLength: rule.maxLength,
      ...(rule.minLength !== undefined ? { minLength: rule.minLength } : {}),
      ...(rule.email ? { format: 'email' } : {}),
      ...docs,
    }),
    Transform(({ value }: { value: unknown }) => trimText(value, rule)),
    ValidateBy({
      name: 'textField',
      validator: {
        validate: (value: unknown) => textFieldError(rule, value) === undefined,
        defaultMessage: (args) => textFieldError(rule, args?.value) ?? '',
      },
    }),
  );
}

/**
 * A password field: not trimmed. `new` applies the account rule (at least 6 characters, SPEC §5);
 * `given` only requires one, for a password being checked against the stored hash.
 */
export function PasswordField(kind: 'new' | 'given', label = 'Password'): PropertyDecorator {
  const error = (value: unknown): string | undefined =>
    kind === 'new' ? passwordError(value, label) : typeof value === 'string' && value !== '' ? undefined : `${label} is required`;
  return applyDecorators(
    ApiProperty({ type: 'string', format: 'password', ...(kind === 'new' ? { minLength: 6, maxLength: 128 } : { maxLength: 1024 }) }),
    ValidateBy({
      name: 'password',
      validator: {
        validate: (value: unknown) => error(value) === undefined && (typeof value !== 'string' || value.length <= 1024),
        defaultMessage: (args) => error(args?.value) ?? `${label} is too long`,
      },
    }),
  );
}

/** An optional text field checked by `rule`'s pattern-free checks and a regular expression, e.g. a 6-digit code. */
export function PatternField(pattern: RegExp, message: string, docs: { example?: string; optional?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'string', pattern: pattern.source, required: !docs.optional, ...(docs.example ? { example: docs.example } : {}) }),
    Transform(({ value }: { value: unknown }) => trimText(value)),
    ValidateBy({
      name: 'pattern',
      validator: {
        validate: (value: unknown) =>
          (docs.optional && (value === undefined || value === null || value === '')) || (typeof value === 'string' && pattern.test(value)),
        defaultMessage: () => message,
      },
    }),
  );
}
