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
  /** The stored index terms (null on rows written before they were stored, and on unindexed items). */
  terms: string | null;
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
 * Candidates are read light (no value unless a filter needs it, no text where terms stand in for it); the page is then
 * read whole by id. `pick*` choose the ids in order, the adapters read those rows and `assemble` them in that order.
 */
export interface Picked {
  id: string;
  score?: number;
}

export function pickSearch(candidates: readonly ItemRow[], search: ItemSearch): Picked[] {
  const matching = candidates.filter(
    (row) => matchesPrefix(row.namespace, search.namespacePrefix) && matchesFilter(row.value, search.filter),
  );
  if (search.query === undefined)
    return matching.slice(search.offset, search.offset + search.limit).map((row) => ({ id: row.id }));
  return rank(matching, search.query.text, search.query.vector)
    .slice(search.offset, search.offset + search.limit)
    .map(({ row, relevance }) => ({ id: row.id, score: round(relevance.score) }));
}

export function pickMemories(candidates: readonly ItemRow[], query: MemoryQuery, limit: number): Picked[] {
  if (limit <= 0) return [];
  return rank(candidates, query.text, query.vector)
    .slice(0, limit)
    .map(({ row, relevance }) => ({ id: row.id, score: relevance.score }));
}

/** The picked rows in the picked order (a row deleted between the two reads is left out). */
export function assemble<T>(
  picked: readonly Picked[],
  rows: readonly ItemRow[],
  as: (row: ItemRow, score: number | undefined) => T,
): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return picked.flatMap((pick) => {
    const row = byId.get(pick.id);
    return row ? [as(row, pick.score)] : [];
  });
}

export const searchHit = (row: ItemRow, score: number | undefined): StoreItemHit => ({
  ...toStoreItem(row),
  ...(score === undefined ? {} : { score }),
});

export const memoryHit =
  (user: string) =>
  (row: ItemRow, score: number | undefined): MemoryHit => ({
    ...memoryOf(row as ItemRow & { text: string }, user),
    score: score ?? 0,
  });

/** The indexed rows by relevance to the query, best first; rows neither channel finds are left out. */
function rank(rows: readonly ItemRow[], text: string, vector: Float32Array | undefined) {
  const query = rankedQuery(text, vector);
  return rows
    .filter((row) => row.terms !== null || row.text !== null)
    .map((row) => ({
      row,
      relevance: relevanceOf(
        query,
        row.terms !== null ? { terms: row.terms } : { text: row.text as string },
        row.vector,
      ),
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

/** The value an agent saves a memory as. */
export const memoryValue = (text: string, source: string | undefined): Record<string, unknown> => ({
  text,
  ...(source === undefined ? {} : { source }),
});
