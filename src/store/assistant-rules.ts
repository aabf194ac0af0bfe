import { ValidationError } from '../errors/index.ts';
import {
  ASSISTANT_SORT_FIELDS,
  MAX_ASSISTANT_PAGE,
  type AssistantFilter,
  type AssistantQuery,
  type AssistantSortField,
} from './ports/assistant-store.ts';

/** The column each sort field orders by (the same names on both backends). */
export const ASSISTANT_SORT_COLUMNS: Record<AssistantSortField, string> = {
  assistant_id: 'a.assistant_id',
  graph_id: 'a.graph_id',
  name: 'a.name',
  created_at: 'a.created_at',
  updated_at: 'a.updated_at',
};

/** The ORDER BY of a search: the chosen field (default newest first), ties broken by id so pages do not overlap. */
export function assistantOrder(query: Pick<AssistantQuery, 'sortBy' | 'sortOrder'>): string {
  const field = query.sortBy ?? 'created_at';
  if (!ASSISTANT_SORT_FIELDS.includes(field)) throw new ValidationError(`Cannot sort assistants by ${field}.`);
  const direction = (query.sortOrder ?? 'desc') === 'asc' ? 'ASC' : 'DESC';
  return `${ASSISTANT_SORT_COLUMNS[field]} ${direction}, a.assistant_id ${direction}`;
}

/** A page's bounds, checked again at the store: a caller that skipped the service's checks still gets a bounded page. */
export function assistantPage(query: { limit: number; offset: number }): { limit: number; offset: number } {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_ASSISTANT_PAGE)
    throw new ValidationError(`limit must be a whole number from 1 to ${MAX_ASSISTANT_PAGE}.`);
  if (!Number.isInteger(query.offset) || query.offset < 0 || query.offset > 1_000_000)
    throw new ValidationError('offset must be a whole number from 0 to 1000000.');
  return { limit: query.limit, offset: query.offset };
}

const METADATA_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/** Metadata filter entries, bounded: at most 8 keys, each a plain key with a scalar value. */
export function assistantMetadataFilter(
  metadata: AssistantFilter['metadata'],
): readonly (readonly [string, string | number | boolean])[] {
  const entries = metadata ?? [];
  if (entries.length > 8) throw new ValidationError('A search filters on at most 8 metadata keys.');
  for (const [key, value] of entries) {
    if (!METADATA_KEY.test(key))
      throw new ValidationError(`${JSON.stringify(key.slice(0, 80))} is no metadata key to filter on.`, {
        hint: 'Filter on keys of letters, digits, _, . and - (at most 64).',
      });
    if (typeof value === 'string' ? value.length > 1000 : !['number', 'boolean'].includes(typeof value))
      throw new ValidationError(
        `The metadata filter on ${key} must be text (at most 1000 characters), a number or a boolean.`,
      );
  }
  return entries;
}
