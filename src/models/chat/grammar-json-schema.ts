import type { GbnfJsonSchema } from 'node-llama-cpp';
import type { JsonSchema } from './chat-model.ts';

/** Keywords node-llama-cpp turns into grammar rules; everything else (bounds, patterns) is left to zod validation. */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'enum',
  'const',
  'oneOf',
  'minLength',
  'maxLength',
  'description',
  '$defs',
  '$ref',
]);
const GRAMMAR_FORMATS = new Set(['date-time', 'time', 'date']);
const SCHEMA_MAPS = new Set(['properties', '$defs']);

/**
 * A JSON Schema (from `z.toJSONSchema`) reduced to the subset node-llama-cpp's grammar understands: `anyOf` becomes
 * `oneOf`, unsupported keywords are dropped. The grammar then only admits JSON of the right shape; value bounds the
 * grammar cannot express are still checked by the schema afterwards.
 */
export function toGrammarJsonSchema(schema: JsonSchema): GbnfJsonSchema {
  return reduce(schema) as GbnfJsonSchema;
}

function reduce(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(reduce);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'anyOf') out.oneOf = reduce(value);
    else if (key === 'format') {
      if (typeof value === 'string' && GRAMMAR_FORMATS.has(value)) out.format = value;
    } else if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, child]) => [name, reduce(child)]),
      );
    } else if (KEPT.has(key))
      out[key] = key === 'enum' || key === 'const' || key === 'required' ? value : reduce(value);
  }
  // `{}` (any value) has no grammar form of its own in node-llama-cpp; say so explicitly.
  if (Object.keys(out).length === 0 || (Object.keys(out).length === 1 && 'description' in out)) {
    out.type = ['string', 'number', 'integer', 'boolean', 'null'];
  }
  return out;
}
