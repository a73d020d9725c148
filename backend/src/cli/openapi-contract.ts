import { type INestApplication, type Type } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer, Reflector } from '@nestjs/core';
import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import {
  getMetadataStorage,
  IS_BOOLEAN,
  IS_IN,
  IS_INT,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
} from 'class-validator';
import { ERROR_RESPONSE, ERROR_RESPONSE_SCHEMA } from '../common/api-docs.js';
import { HEALTH_PROBE_PATHS } from '../common/api-rate-limit.js';
import { isStateChanging } from '../common/csrf.js';
import { MAX_PATH_PARAMETER_LENGTH } from '../common/path-limits.js';
import { OperatorTokenGuard } from '../common/operator-token.guard.js';
import { ACCOUNT_TEXTS } from '../contracts/account.js';
import { STAFF_TEXTS } from '../contracts/staff.js';
import { requirementOf } from '../modules/auth/access.js';
import { SESSION_COOKIE } from '../modules/auth/sessions.service.js';
import { OPERATION_SUMMARIES } from './operation-summaries.js';

/**
 * What the generated document must say that Nest's scanner cannot see: who may call each operation
 * (from the same route metadata the guards read), every refusal the server's global checks can give,
 * the rules class-validator enforces, and a summary per operation. Fails on a route without a summary.
 */
export function completeContract(app: INestApplication, document: OpenAPIObject): OpenAPIObject {
  const operations = indexOperations(document);
  for (const route of routesOf(app)) {
    const entry = operations.get(`${route.controller.name}_${route.method}`);
    if (!entry) continue; // excluded from the document (@ApiExcludeController)
    describeAccess(entry, route);
    describeGlobalRefusals(entry, route);
    describeValidation(document, entry, route);
  }
  const missing = [...operations.values()].map(operationKey).filter((key) => !OPERATION_SUMMARIES[key]);
  if (missing.length > 0) throw new Error(`No summary in cli/operation-summaries.ts for: ${missing.join(', ')}`);
  for (const entry of operations.values()) entry.operation.summary = OPERATION_SUMMARIES[operationKey(entry)];
  document.components ??= {};
  document.components.securitySchemes = SECURITY_SCHEMES;
  document.components.schemas = { ...document.components.schemas, ...ERROR_RESPONSE };
  // Every route reads the session when one is sent (e.g. a listing knows whether the viewer saved it).
  document.security = [{}, { session: [] }];
  return document;
}

const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session cookie set by sign-in. State-changing calls that send it must also send X-Requested-With.',
  },
  operator: { type: 'http', scheme: 'bearer', description: 'OPERATOR_TOKEN from the configuration, for the operator endpoints' },
} as const;

interface Route {
  controller: Type<unknown>;
  method: string;
  handler: (...args: unknown[]) => unknown;
}

interface OperationEntry {
  path: string;
  verb: string;
  operation: OperationObject;
}

const operationKey = ({ verb, path }: OperationEntry) => `${verb.toUpperCase()} ${path}`;

function indexOperations(document: OpenAPIObject): Map<string, OperationEntry> {
  const index = new Map<string, OperationEntry>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const verb of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const) {
      const operation = item[verb];
      if (operation?.operationId) index.set(operation.operationId, { path, verb, operation });
    }
  }
  return index;
}

/** Every route handler of every controller, as Nest's own scanner finds them. */
function routesOf(app: INestApplication): Route[] {
  const routes: Route[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | undefined;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[method];
        if (typeof handler === 'function' && Reflect.hasMetadata(PATH_METADATA, handler)) {
          routes.push({ controller, method, handler: handler as Route['handler'] });
        }
      }
    }
  }
  return routes;
}

const reflector = new Reflector();

/** Security and the refusals of the route's requirement, as AccessGuard and OperatorTokenGuard apply them. */
function describeAccess({ operation }: OperationEntry, { controller, handler }: Route): void {
  const guards = reflector.getAllAndMerge<unknown[]>(GUARDS_METADATA, [controller, handler]);
  if (guards.includes(OperatorTokenGuard)) {
    operation.security = [{ operator: [] }];
    document401(operation, 'Missing or wrong operator token');
    addResponse(operation, 404, 'No OPERATOR_TOKEN is configured');
    return;
  }
  const requirement = requirementOf(reflector, handler, controller);
  if (!requirement) return;
  operation.security = [{ session: [] }];
  document401(operation, `No session: "${ACCOUNT_TEXTS.signInRequired}", or an ended one: "${ACCOUNT_TEXTS.sessionExpired}"`);
  if (requirement === 'verified-email')
    addResponse(operation, 403, `The e-mail address is not confirmed: "${ACCOUNT_TEXTS.verifyEmailFirst}"`);
  if (requirement === 'staff') {
    addResponse(
      operation,
      403,
      `Not staff ("${STAFF_TEXTS.staffOnly}"), or staff without two-factor sign-in ("${STAFF_TEXTS.twoFactorNeeded}")`,
    );
  }
}

const document401 = (operation: OperationObject, why: string) => addResponse(operation, 401, why);

/** Refusals every route of a kind can give: the body parser, the validation pipe, the CSRF check, the rate limit, the route's 2xx. */
function describeGlobalRefusals({ path, verb, operation }: OperationEntry, { handler }: Route): void {
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  if (operation.requestBody || parameters.some((parameter) => parameter.in === 'query')) {
    addResponse(operation, 400, 'The request is invalid: `error` says why, `fields` has one message per invalid field');
  }
  if (operation.requestBody) {
    addResponse(operation, 413, 'The body is too large, or has too many values');
    addResponse(operation, 415, 'The body is not JSON (Content-Type: application/json)');
  }
  if (parameters.some((parameter) => parameter.in === 'path')) {
    addResponse(operation, 400, 'A part of the path is not properly percent-encoded');
    addResponse(operation, 404, 'Nothing with that id (or not yours)');
    addResponse(operation, 414, `A part of the path is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`);
  }
  if (isStateChanging(verb))
    addResponse(operation, 403, `The session cookie came without X-Requested-With: "${ACCOUNT_TEXTS.missingClientHeader}"`);
  if (path.startsWith('/api/') && !HEALTH_PROBE_PATHS.includes(path)) {
    addResponse(operation, 429, 'Too many requests from this client; Retry-After says when to try again');
  }
  for (const [status, response] of Object.entries(operation.responses)) {
    if (status === '429') (response as ResponseObject).headers ??= RETRY_AFTER;
  }
  const status = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  if (status === 204 && !operation.responses['204']) operation.responses['204'] = { description: 'Done; no content' };
}

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
} as const;

/** Adds an error answer in the error envelope, or adds `why` to the description of one the route documents itself. */
function addResponse(operation: OperationObject, status: number, why: string): void {
  const existing = operation.responses[status] as ResponseObject | undefined;
  if (!existing) {
    operation.responses[status] = { description: why, content: { 'application/json': { schema: ERROR_RESPONSE_SCHEMA } } };
  } else if (!existing.description.includes(why)) {
    existing.description = `${existing.description.replace(/\.$/, '')}. Or: ${why}`;
  }
}

type ArgumentKinds = Record<string, { index: number; data?: unknown }>;

/** The checks of the route's body and query DTOs, written into their schemas (the DTOs' own declarations, so they cannot drift). */
function describeValidation(document: OpenAPIObject, { operation }: OperationEntry, { controller, method }: Route): void {
  const argumentKinds = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as ArgumentKinds;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype as object, method) ?? []) as unknown[];
  for (const [key, { index, data }] of Object.entries(argumentKinds)) {
    const kind = Number(key.split(':')[0]);
    const dto = types[index];
    if (data !== undefined || typeof dto !== 'function' || dto === Object) continue;
    if (kind === RouteParamtypes.BODY) {
      const schema = document.components?.schemas?.[dto.name] as SchemaObject | undefined;
      for (const [property, rules] of validationRules(dto)) {
        const target = schema?.properties?.[property] as SchemaObject | undefined;
        if (target) applyRules(target, rules);
      }
    } else if (kind === RouteParamtypes.QUERY) {
      const rules = validationRules(dto);
      for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
        const found = parameter.in === 'query' ? rules.get(parameter.name) : undefined;
        if (found && parameter.schema) applyRules(parameter.schema as SchemaObject, found);
      }
    }
  }
}

interface Rule {
  name: string;
  constraints: unknown[];
  each: boolean;
}

function validationRules(dto: unknown): Map<string, Rule[]> {
  const byProperty = new Map<string, Rule[]>();
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(dto as () => void, '', true, false)) {
    if (!meta.name) continue;
    const list = byProperty.get(meta.propertyName) ?? [];
    list.push({ name: meta.name, constraints: (meta.constraints ?? []) as unknown[], each: meta.each ?? false });
    byProperty.set(meta.propertyName, list);
  }
  return byProperty;
}

/** class-validator's built-in checks in JSON Schema's words; custom checks document themselves in @ApiProperty. */
const SCHEMA_OF_CHECK: Record<string, (schema: SchemaObject, constraint: unknown) => void> = {
  [IS_INT]: (schema) => void (schema.type = 'integer'),
  [IS_NUMBER]: (schema) => void (schema.type = 'number'),
  [IS_BOOLEAN]: (schema) => void (schema.type = 'boolean'),
  [MIN]: (schema, value) => void (schema.minimum = value as number),
  [MAX]: (schema, value) => void (schema.maximum = value as number),
  [MIN_LENGTH]: (schema, value) => void (schema.minLength = value as number),
  [MAX_LENGTH]: (schema, value) => void (schema.maxLength = value as number),
  [IS_NOT_EMPTY]: (schema) => void (schema.minLength = Math.max(schema.minLength ?? 0, 1)),
  [MATCHES]: (schema, value) => void (schema.pattern = value instanceof RegExp ? value.source : String(value)),
  [IS_UUID]: (schema) => void (schema.format = 'uuid'),
  [IS_IN]: (schema, value) => void (schema.enum ??= value as unknown[]),
};

function applyRules(schema: SchemaObject, rules: Rule[]): void {
  for (const { name, constraints, each } of rules) {
    // `each` checks the items of a list.
    SCHEMA_OF_CHECK[name]?.(each ? ((schema.items as SchemaObject | undefined) ?? schema) : schema, constraints[0]);
  }
}
