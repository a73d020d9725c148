import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationArguments } from 'class-validator';
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

/** Line breaks, including the vertical tab, form feed, NEL and Unicode's line and paragraph separators. */
const LINE_BREAK = /[\n\r\v\f\u0085\u2028\u2029]/;
/** C0 controls, DEL and C1 controls, and the Unicode separators that start a new line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** The same, but tab, line feed and carriage return, which multi-line text needs. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_BUT_LINES_AND_TABS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * A one-line field (a name, a subject): a line break gets `lineMessage`, any other control
 * character `controlMessage`. Such fields end up in mail headers and one-line displays, where a
 * line break forges a new header-like line. Non-strings pass, for the type check to report.
 */
export const SingleLine = (lineMessage: string, controlMessage: string): PropertyDecorator =>
  ValidateBy({
    name: 'singleLine',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !CONTROL.test(value),
      defaultMessage: (args?: ValidationArguments) => (LINE_BREAK.test(String(args?.value)) ? lineMessage : controlMessage),
    },
  });

/** Multi-line text (a message): line breaks and tabs are fine, other control characters get `message`. */
export const NoControlCharacters = (message: string): PropertyDecorator =>
  ValidateBy(
    {
      name: 'noControlCharacters',
      validator: { validate: (value: unknown) => typeof value !== 'string' || !CONTROL_BUT_LINES_AND_TABS.test(value) },
    },
    { message },
  );
