import { z } from 'zod';
import type { JsonSchema } from './openapi-types.ts';

/** zod bounds every `.int()` by the safe-integer range: true, but noise in a reference, so it is left out. */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) ||
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)
    )
      continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out;
}

/**
 * A zod schema as the JSON Schema (2020-12, the dialect of OpenAPI 3.1) of a request (`input`: defaults make fields
 * optional) or a response (`output`). The `$schema` key is dropped: the OpenAPI document already names the dialect.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return withoutSafeIntegerBounds(rest) as JsonSchema;
}
