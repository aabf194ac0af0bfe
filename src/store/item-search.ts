import type {
  ItemSearch,
  MemoryHit,
  MemoryQuery,
  MemoryRecord,
  StoreItem,
  StoreItemHit,
} from './ports/memory-store.ts';
import { byRelevance, rankedQuery, relevanceOf } from './item-ranking.ts';
import { matchesFilter, matchesPrefix } from './item-rules.ts';

/** An item row as both backends read it back (value parsed, vector decoded, times as ISO strings). */
export interface ItemRow {
  id: string;
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  text: string | null;
  vector: Float32Array | undefined;
  createdAt: string;
  updatedAt: string;
}

export const toStoreItem = (row: ItemRow): StoreItem => ({
  namespace: row.namespace,
  key: row.key,
  value: row.value,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Whether the SQL can page a search itself: no query to rank by, no filter, no wildcard past its literal head. */
export const pagesInSql = (search: ItemSearch): boolean =>
  search.query === undefined && search.filter === undefined && !search.namespacePrefix.includes('*');

/**
 * The page of a search from its candidates (the caller's readable, unexpired items under the prefix's literal head,
 * newest first): the wildcard prefix and the filter, then relevance when there is a query (items neither channel
 * finds are left out), then offset and limit.
 */
export function pageSearch(candidates: readonly ItemRow[], search: ItemSearch): StoreItemHit[] {
  const matching = candidates.filter(
    (row) => matchesPrefix(row.namespace, search.namespacePrefix) && matchesFilter(row.value, search.filter),
  );
  if (search.query === undefined) return matching.slice(search.offset, search.offset + search.limit).map(toStoreItem);
  const ranked = rank(matching, search.query.text, search.query.vector);
  return ranked
    .slice(search.offset, search.offset + search.limit)
    .map(({ row, relevance }) => ({ ...toStoreItem(row), score: round(relevance.score) }));
}

function rank(rows: readonly ItemRow[], text: string, vector: Float32Array | undefined) {
  const query = rankedQuery(text, vector);
  return rows
    .filter((row) => row.text !== null)
    .map((row) => ({
      row,
      relevance: relevanceOf(query, row.text as string, row.vector),
      tiebreak: `${row.updatedAt}\u0000${row.id}`,
    }))
    .filter((entry) => entry.relevance.score > 0)
    .sort(byRelevance);
}

const round = (score: number) => Math.round(score * 1e6) / 1e6;

/** An indexed item of a user's own namespace, as a memory. */
export function memoryOf(row: ItemRow & { text: string }, user: string): MemoryRecord {
  const source = row.value.source;
  return {
    id: row.id,
    user,
    text: row.text,
    ...(typeof source === 'string' ? { source } : {}),
    createdAt: row.createdAt,
    namespace: row.namespace,
    key: row.key,
  };
}

/** The user's best memories for a query, from their indexed items. */
export function rankMemories(rows: readonly ItemRow[], user: string, query: MemoryQuery, limit: number): MemoryHit[] {
  if (limit <= 0) return [];
  return rank(rows, query.text, query.vector)
    .slice(0, limit)
    .map(({ row, relevance }) => ({ ...memoryOf(row as ItemRow & { text: string }, user), score: relevance.score }));
}

/** The value an agent saves a memory as. */
export const memoryValue = (text: string, source: string | undefined): Record<string, unknown> => ({
  text,
  ...(source === undefined ? {} : { source }),
});
