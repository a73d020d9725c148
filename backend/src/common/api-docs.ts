import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

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

/** Documents an error response in the `{ success: false, error, fields? }` envelope. */
export function ApiErrorEnvelope(status: number, description: string) {
  return ApiResponse({
    status,
    description,
    schema: {
      type: 'object',
      required: ['success', 'error'],
      properties: {
        success: { type: 'boolean', enum: [false] },
        error: { type: 'string' },
        fields: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  });
}
