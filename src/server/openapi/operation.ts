import type { z } from 'zod';
import { ERROR_SCHEMA_REF } from './error-schema.ts';
import { jsonSchemaOf } from './json-schema.ts';
import type {
  JsonSchema,
  MediaTypeObject,
  OperationObject,
  ParameterObject,
  PathGroup,
  PathItemObject,
  ResponseObject,
  TagObject,
} from './openapi-types.ts';

/** Who may call a route: anyone, any valid key, or an admin key. */
export type Access = OperationObject['x-evident-access'];

type Schema = z.ZodType | JsonSchema;

export interface ResponseSpec {
  description: string;
  /** JSON body; other media types go in `content`. */
  json?: Schema;
  content?: Record<string, MediaTypeObject>;
}

export interface OperationSpec {
  id: string;
  summary: string;
  description?: string;
  access: Access;
  params?: ParameterObject[];
  /** A JSON body, validated with a 400 on bad input. */
  json?: Schema;
  /** Any other request body (multipart, …); validated with a 400 too. */
  body?: { description?: string; content: Record<string, MediaTypeObject> };
  responses: Record<number, ResponseSpec>;
  /** Served only to refuse, on purpose: no 2xx response (`x-evident-refused`). */
  refused?: true;
}

export const KEY_SECURITY = [{ bearerAuth: [] }, { apiKeyHeader: [] }];

const isZod = (schema: Schema): schema is z.ZodType =>
  typeof (schema as { safeParse?: unknown }).safeParse === 'function';
const schemaOf = (schema: Schema, io: 'input' | 'output') => (isZod(schema) ? jsonSchemaOf(schema, io) : schema);

const errorResponse = (description: string): ResponseObject => ({
  description,
  content: { 'application/json': { schema: ERROR_SCHEMA_REF } },
});

export const pathParam = (name: string, description: string): ParameterObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** One operation, with the error responses its access and body imply, so no route forgets to document them. */
export function operation(spec: OperationSpec): OperationObject {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.json ? { content: { 'application/json': { schema: schemaOf(response.json, 'output') } } } : {}),
      ...(response.content ? { content: response.content } : {}),
    };
  }
  const hasBody = Boolean(spec.json ?? spec.body);
  if (hasBody)
    responses['400'] ??= errorResponse(
      'Invalid input (`invalid_input`), or a field over a request limit (`input_too_large`): the message names the field, the hint the fix or the setting.',
    );
  // Every JSON body goes through the one reader, which refuses one over `limits.maxBodyBytes`.
  if (spec.json)
    responses['413'] ??= errorResponse('The body is larger than `limits.maxBodyBytes` (`payload_too_large`).');
  if (spec.access === 'key' || spec.access === 'admin')
    responses['401'] ??= errorResponse('Missing or invalid API key.');
  if (spec.access === 'admin') responses['403'] ??= errorResponse('The key is not an admin key.');
  return {
    operationId: spec.id,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [],
    security:
      spec.access === 'public' || spec.access === 'browser'
        ? []
        : spec.access === 'scim'
          ? [{ bearerAuth: [] }]
          : KEY_SECURITY,
    'x-evident-access': spec.access,
    ...(spec.refused ? { 'x-evident-refused': true as const } : {}),
    ...(spec.params ? { parameters: spec.params } : {}),
    ...(spec.json
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(spec.json, 'input') } } } }
      : {}),
    ...(spec.body ? { requestBody: { required: true, ...spec.body } } : {}),
    responses,
  };
}

/** A route module's paths under its tag (every operation gets the tag, so the docs page can group by it). */
export function pathGroup(
  tag: TagObject,
  paths: Record<string, PathItemObject>,
  schemas?: Record<string, JsonSchema>,
): PathGroup {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) op.tags = [tag.name];
  }
  return { tag, paths, ...(schemas ? { schemas } : {}) };
}
