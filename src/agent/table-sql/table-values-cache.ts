import type { TableRecord } from '../../domain/index.ts';
import type { DocumentStore } from '../../store/store.ts';

/** A table's distinct short values per column, as `loadTableSchemas` reads them. */
export type ColumnValues = Record<string, string[]>;

/** Characters of values kept per store: a few large tables' worth (the values of one are bounded per column). */
const KEPT_CHARS = 8_000_000;

interface Kept {
  values: ColumnValues;
  chars: number;
}

/**
 * The column values of tables read earlier, by table version: the offline table route reads every visible table's
 * cells on every run (one bounded query per column), though they change only when the table's document is ingested
 * again. A version is the table's SQL name and schema and its document's content hash and ingestion time, read from
 * the store at each use, so a table replaced by another process is read again. Only tables the principal may see
 * now are asked for (the caller lists them with the principal first): a table's cells are the same for every reader
 * allowed to see it. Least recently used first out, within `KEPT_CHARS`.
 */
export class TableValuesCache {
  private readonly kept = new Map<string, Kept>();
  private chars = 0;

  /** The table's values, read with `read` unless this version's are kept; `read` says whether its result may be kept. */
  async valuesOf(
    store: Pick<DocumentStore, 'getDocument'>,
    table: TableRecord,
    read: () => Promise<{ values: ColumnValues; complete: boolean }>,
  ): Promise<ColumnValues> {
    const document = await store.getDocument(table.docId);
    const key = document
      ? JSON.stringify([table.sqlName, table.columns, table.rowCount, document.contentHash, document.ingestedAt])
      : undefined;
    const hit = key === undefined ? undefined : this.kept.get(key);
    if (key !== undefined && hit) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return hit.values;
    }
    const { values, complete } = await read();
    if (key !== undefined && complete) this.keep(key, values);
    return values;
  }

  private keep(key: string, values: ColumnValues): void {
    let chars = 0;
    for (const list of Object.values(values)) for (const value of list) chars += value.length + 1;
    if (chars > KEPT_CHARS / 4) return;
    this.kept.set(key, { values, chars });
    this.chars += chars;
    for (const [oldest, entry] of this.kept) {
      if (this.chars <= KEPT_CHARS) break;
      this.kept.delete(oldest);
      this.chars -= entry.chars;
    }
  }
}

const caches = new WeakMap<object, TableValuesCache>();

/** The cache of one store (per instance: two stores never share what they read). */
export function tableValuesCacheOf(store: object): TableValuesCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new TableValuesCache();
    caches.set(store, cache);
  }
  return cache;
}
