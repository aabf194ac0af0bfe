import { z } from 'zod';
import { assistantFieldsSchema } from '../../../runs/assistant-input.ts';
import { ASSISTANT_SORT_FIELDS, MAX_ASSISTANT_PAGE, type AssistantFilter } from '../../../store/store.ts';
import { ValidationError } from '../../../errors/index.ts';

/** Metadata to filter on: exact values of top-level keys (text, numbers, booleans). */
const metadataFilter = z
  .record(z.string().max(64), z.union([z.string().max(1000), z.number(), z.boolean()]))
  .refine((filter) => Object.keys(filter).length <= 8, 'filter on at most 8 metadata keys');

const page = {
  limit: z.number().int().min(1).max(MAX_ASSISTANT_PAGE).nullish(),
  offset: z.number().int().min(0).max(1_000_000).nullish(),
};

export const ASSISTANT_SELECT_FIELDS = [
  'assistant_id',
  'graph_id',
  'name',
  'description',
  'config',
  'context',
  'created_at',
  'updated_at',
  'metadata',
  'version',
] as const;

/** `POST /assistants`: LangGraph's fields, plus Evident's `acl`. */
export const assistantCreateSchema = assistantFieldsSchema.extend({
  assistant_id: z.string().max(64).nullish(),
  if_exists: z.enum(['raise', 'do_nothing']).nullish(),
});

/** `PATCH /assistants/{id}`: a new version; what it leaves out is taken from the latest. */
export const assistantPatchSchema = assistantFieldsSchema;

export const assistantSearchSchema = z.object({
  graph_id: z.string().max(128).nullish(),
  name: z.string().max(200).nullish(),
  metadata: metadataFilter.nullish(),
  ...page,
  sort_by: z.enum(ASSISTANT_SORT_FIELDS).nullish(),
  sort_order: z.enum(['asc', 'desc']).nullish(),
  select: z.array(z.enum(ASSISTANT_SELECT_FIELDS)).max(ASSISTANT_SELECT_FIELDS.length).nullish(),
});

export const assistantCountSchema = assistantSearchSchema.pick({ graph_id: true, name: true, metadata: true });

export const assistantVersionsSchema = z.object({ metadata: metadataFilter.nullish(), ...page });

export const assistantLatestSchema = z.object({ version: z.number().int().min(1).max(1_000_000_000) });

/** The filters of a search, count or version listing as the store takes them. */
export function filterOf(body: {
  graph_id?: string | null | undefined;
  name?: string | null | undefined;
  metadata?: Record<string, string | number | boolean> | null | undefined;
}): AssistantFilter {
  return {
    ...(body.graph_id ? { graphId: body.graph_id } : {}),
    ...(body.name ? { name: body.name } : {}),
    ...(body.metadata ? { metadata: Object.entries(body.metadata) } : {}),
  };
}

/**
 * The version a run asks for (`assistant_version`, Evident's field beside LangGraph's `assistant_id`), or none:
 * the assistant's latest.
 */
export function assistantVersionOf(body: Record<string, unknown>): number | undefined {
  const version = body.assistant_version;
  if (version === undefined || version === null) return undefined;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > 1_000_000_000)
    throw new ValidationError('assistant_version is a whole number from 1.', {
      hint: 'POST /assistants/{id}/versions lists the versions; leave it out to run the latest.',
    });
  return version;
}

/** The run request's `assistantVersion`, when the body names one. */
export function assistantVersionField(body: object): { assistantVersion?: number } {
  const version = assistantVersionOf(body as Record<string, unknown>);
  return version === undefined ? {} : { assistantVersion: version };
}
