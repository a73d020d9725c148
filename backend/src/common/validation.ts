import { type ArgumentMetadata, applyDecorators, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiProperty, DECORATORS } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { passwordError } from '../contracts/account.js';
import { textFieldError, textFieldPattern, trimText, type TextRule } from '../contracts/text-rules.js';
import { FieldValidationException } from './errors.js';

/** How a DTO is checked, by the pipe or by a parse function of its own (parseSearchQuery). */
export const VALIDATOR_OPTIONS = { whitelist: true, stopAtFirstError: true, validationError: { target: false, value: false } } as const;

/**
 * Validates request DTOs: unknown fields are dropped, the first failing rule per field gives
 * its message, and the result is a 400 with one message per field.
 */
export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    ...VALIDATOR_OPTIONS,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) => new FieldValidationException(collectMessages(errors)),
  });
}

/**
 * Also refuses `null` in a body field the contract does not declare nullable: class-validator's
 * optional fields take null as absent, so `"bio": null` passed although openapi.yaml says string.
 * The contract's own declaration (@ApiProperty's `nullable`) decides, so the two cannot disagree.
 */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const repeated = metadata.type === 'query' ? repeatedParameters(value) : {};
    if (Object.keys(repeated).length > 0) throw new FieldValidationException(repeated);
    if (metadata.metatype && Reflect.getMetadata(OWN_PARSER, metadata.metatype)) return value;
    const nulls = metadata.type === 'body' ? undeclaredNulls(value, metadata.metatype) : {};
    if (Object.keys(nulls).length === 0) return super.transform(value, metadata);
    let fields: Record<string, string> = {};
    try {
      await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof FieldValidationException)) throw error;
      fields = error.fields;
    }
    throw new FieldValidationException({ ...nulls, ...fields }); // a field's own message ("Full name is required") comes first
  }
}

const OWN_PARSER = 'fieldmarket:own-parser';

/**
 * Every query parameter of the API takes one value: `?q=a&q=b` is refused by name (these are the
 * messages), before the parameter's own rules would call the pair "at most 100 characters" or "not a whole number".
 */
export function repeatedParameters(query: unknown): Record<string, string> {
  if (!query || typeof query !== 'object') return {};
  const repeated = Object.keys(query).filter((name) => Array.isArray((query as Record<string, unknown>)[name]));
  return Object.fromEntries(repeated.map((name) => [name, `${name} must be given once`]));
}

/**
 * Marks a DTO whose values a parse function of its own checks, with the DTO's rules, once
 * (parseSearchQuery): the pipe hands the controller the parameters as they came. The DTO still
 * documents them in the contract.
 */
export const CheckedByOwnParser = (): ClassDecorator => (target) => Reflect.defineMetadata(OWN_PARSER, true, target);

const FIELD_LABEL = 'fieldmarket:field-label';

/** Names a body field in messages the generic checks write ("Bio must be text"); the property name otherwise. */
const FieldLabel =
  (label: string): PropertyDecorator =>
  (target, key) =>
    Reflect.defineMetadata(FIELD_LABEL, label, target, key);

interface DocumentedField {
  nullable?: boolean;
  type?: unknown;
  isArray?: boolean;
}

function undeclaredNulls(body: unknown, dto: unknown): Record<string, string> {
  if (typeof dto !== 'function' || typeof body !== 'object' || body === null) return {};
  const prototype = (dto as { prototype: object }).prototype;
  const documented = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) as string[] | undefined) ?? [];
  const fields: Record<string, string> = {};
  for (const field of documented.map((name) => name.replace(/^:/, ''))) {
    if ((body as Record<string, unknown>)[field] !== null) continue;
    const declared = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, prototype, field) ?? {}) as DocumentedField;
    if (declared.nullable) continue;
    const label = (Reflect.getMetadata(FIELD_LABEL, prototype, field) as string | undefined) ?? field;
    fields[field] = `${label} ${expectedKind(declared)}`;
  }
  return fields;
}

/** What a documented field must be instead of null, in the words the field's own checks use. */
function expectedKind({ type, isArray }: DocumentedField): string {
  if (isArray || type === Array || type === 'array') return 'must be a list';
  if (type === String || type === 'string') return 'must be text';
  if (type === Number || type === 'number' || type === 'integer') return 'must be a number';
  if (type === Boolean || type === 'boolean') return 'must be true or false';
  return 'must not be null';
}

/** One message per field (its first failing rule), nested fields named with dots: a 400's `fields`. */
export function collectMessages(errors: ValidationError[], prefix = ''): Record<string, string> {
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
      // Blank counts as missing: a required field needs one character at least (the pattern says which).
      ...(rule.minLength !== undefined || !rule.optional ? { minLength: rule.minLength ?? 1 } : {}),
      pattern: textFieldPattern(rule),
      ...(rule.email ? { format: 'email' } : {}),
      ...docs,
    }),
    FieldLabel(rule.label),
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
    FieldLabel(label),
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
