import { z } from 'zod';
import type { JsonSchema } from './openapi-types.ts';

/**
 * A zod schema as the JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a request (`input`: defaults make fields
 * optional) or a response (`output`). The `$schema` key is dropped: the OpenAPI document already names the dialect.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}
