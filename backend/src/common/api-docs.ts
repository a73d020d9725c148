import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath, type SchemaObject } from '@nestjs/swagger';

/** Documents a response as the success envelope around `model` (or an array of it). */
export function ApiEnvelope(status: number, model: Type<unknown>, options: { isArray?: boolean; description?: string } = {}) {
  const data = options.isArray ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description: options.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: { success: { type: 'boolean', enum: [true] }, data },
      },
    }),
  );
}

/** The error envelope (common/envelope.ts), once in components; the generator adds it (cli/openapi-contract.ts). */
export const ERROR_RESPONSE = {
  ErrorResponse: {
    type: 'object',
    required: ['success', 'error'],
    properties: {
      success: { type: 'boolean', enum: [false] },
      error: { type: 'string', description: 'What went wrong, in words a person can act on' },
      fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'One message per invalid request field' },
      details: { description: 'Machine-readable context, such as the individual health checks' },
    },
  },
} as const satisfies Record<string, SchemaObject>;

export const ERROR_RESPONSE_SCHEMA = { $ref: '#/components/schemas/ErrorResponse' };

/** Documents an error response in the `{ success: false, error, fields? }` envelope. */
export function ApiErrorEnvelope(status: number, description: string) {
  return ApiResponse({ status, description, schema: ERROR_RESPONSE_SCHEMA });
}
