import type { Principal, TableRecord } from '../../domain/index.ts';
import { QueryRejectedError, QueryTooLargeError } from '../../errors/index.ts';
import type { DocumentStore } from '../../store/store.ts';
import { tableValuesCacheOf } from './table-values-cache.ts';

/** A table's schema plus, per column, its distinct values as text (to recognise "shipped", "Acme", "1913–1914"). */
export interface TableSchema extends TableRecord {
  values?: Record<string, readonly string[]>;
}

/** Distinct values read per column: enough for tables of a few hundred rows, bounded for large ones. */
export const VALUES_PER_COLUMN = 1000;
/** Longer values are not words a question names; leaving them out keeps what reaches a prompt small. */
const VALUE_CHARS = 100;
const VALUE_LIMITS = {
  maxRows: VALUES_PER_COLUMN,
  timeoutMs: 5_000,
  maxResultBytes: 256 * 1024,
  maxValueBytes: 4 * VALUE_CHARS,
};
/** A name as an SQL identifier. */
export const quoteId = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Schemas of the tables the principal may see, with up to 1,000 distinct short values of each column (as text), read
 * through the principal-filtered `queryTables` like any other table query (kept per table version: see
 * `TableValuesCache`). A column whose values cannot be read within their bounds is listed without values. `only`
 * picks the tables wanted (those of the documents an answer cites).
 */
export async function loadTableSchemas(
  store: DocumentStore,
  principal: Principal,
  only: (table: TableRecord) => boolean = () => true,
): Promise<TableSchema[]> {
  const tables = (await store.listTables(principal)).filter(only);
  const cache = tableValuesCacheOf(store);
  return Promise.all(
    tables.map(async (table) => ({
      ...table,
      values: await cache.valuesOf(store, table, () => readColumnValues(store, principal, table)),
    })),
  );
}

/** Every column's values; `complete` is false when one of them could not be read within its bounds (listed as none). */
async function readColumnValues(
  store: DocumentStore,
  principal: Principal,
  table: TableRecord,
): Promise<{ values: Record<string, string[]>; complete: boolean }> {
  const values: Record<string, string[]> = {};
  let complete = true;
  for (const column of table.columns) {
    const name = quoteId(column.name);
    const text = column.type === 'text' ? name : `CAST(${name} AS TEXT)`;
    try {
      const result = await store.queryTables(
        `SELECT DISTINCT ${text} FROM ${quoteId(table.sqlName)} WHERE ${name} IS NOT NULL AND length(${text}) <= ${VALUE_CHARS}`,
        principal,
        VALUE_LIMITS,
      );
      values[column.name] = result.rows.map((row) => String(row[0]));
    } catch (error) {
      if (
        !QueryTooLargeError.isInstance(error) &&
        !(QueryRejectedError.isInstance(error) && error.code === 'query_timeout')
      )
        throw error;
      values[column.name] = [];
      complete = false;
    }
  }
  return { values, complete };
}
