import type { SqlDialect } from '../../store/sql-guard.ts';
import type { ColumnProfile } from './table-question-to-sql-columns.ts';
import { filterSql, numericExpr, quoteLiteral, type PlanFilter } from './table-question-to-sql-filters.ts';
import { quoteId } from './table-schemas.ts';

export type TableAggregate = 'sum' | 'avg' | 'count' | 'max' | 'min';
/**
 * What a plan computes: an aggregate; the cell(s) of rows a question names (`lookup`); the row with the largest or
 * smallest value (`argmax`/`argmin`) or the most or least frequent value (`mode`/`antimode`); the first or last row
 * (`first`/`last`), the row after or before a named one (`next`/`previous`); the difference of two rows' values.
 */
export type TableQuestionShape =
  | TableAggregate
  | 'lookup'
  | 'argmax'
  | 'argmin'
  | 'mode'
  | 'antimode'
  | 'first'
  | 'last'
  | 'next'
  | 'previous'
  | 'difference';

/** Rows a lookup returns at most. */
const LOOKUP_ROWS = 20;

/** Row order: ingestion inserts rows in file order. */
const rowOrder = (dialect: SqlDialect): string => (dialect === 'postgresql' ? 'ctid' : 'rowid');

/** The SELECT of a plan's shape over its table, filters and columns; `undefined` when the shape lacks a part it needs. */
export function writeSql(
  shape: TableQuestionShape,
  sqlName: string,
  filters: readonly PlanFilter[],
  profiles: ReadonlyMap<string, ColumnProfile>,
  dialect: SqlDialect,
  parts: { column?: ColumnProfile; target?: ColumnProfile; groupBy?: ColumnProfile },
  /** The table's columns, read against the question. */
  columns: readonly ColumnProfile[],
): string | undefined {
  const from = quoteId(sqlName);
  const conditions = filters.map((filter) => filterSql(filter, profiles, dialect));
  // A "Total" row sums up the others: it is no row a count, an extreme or the first/last is about.
  const rowsOnly = columns
    .filter((column) => column.summaryCells.length > 0 && column.summaryCells.length <= 2 && column.values.length > 3)
    .map(
      (column) =>
        `(${quoteId(column.name)} IS NULL OR ${quoteId(column.name)} NOT IN (${column.summaryCells.map(quoteLiteral).join(', ')}))`,
    );
  const where = (extra: string[] = []) => {
    const all = [...conditions, ...(shape === 'lookup' ? [] : rowsOnly), ...extra];
    return all.length ? ` WHERE ${all.join(' AND ')}` : '';
  };
  const measure = parts.column ? numericExpr(parts.column, dialect) : undefined;
  const target = parts.target ? quoteId(parts.target.name) : undefined;
  const order = rowOrder(dialect);
  switch (shape) {
    case 'count':
    case 'sum':
    case 'avg':
    case 'max':
    case 'min': {
      const aggregate = shape === 'count' ? 'COUNT(*)' : `${shape.toUpperCase()}(${measure})`;
      if (shape !== 'count' && !measure) return undefined;
      if (parts.groupBy) {
        const group = quoteId(parts.groupBy.name);
        return `SELECT ${group}, ${aggregate} AS result FROM ${from}${where()} GROUP BY ${group} ORDER BY ${group}`;
      }
      return `SELECT ${aggregate} AS result FROM ${from}${where()}`;
    }
    case 'lookup':
      if (!target) return undefined;
      return `SELECT DISTINCT ${target} AS result FROM ${from}${where([`${target} IS NOT NULL`])} LIMIT ${LOOKUP_ROWS}`;
    case 'argmax':
    case 'argmin':
      if (!target || !measure) return undefined;
      return `SELECT ${target} AS result FROM ${from}${where([`${measure} IS NOT NULL`, `${target} IS NOT NULL`])} ORDER BY ${measure} ${shape === 'argmax' ? 'DESC' : 'ASC'} LIMIT 1`;
    case 'mode':
    case 'antimode':
      if (!target) return undefined;
      return `SELECT ${target} AS result FROM ${from}${where([`${target} IS NOT NULL`])} GROUP BY ${target} ORDER BY COUNT(*) ${shape === 'mode' ? 'DESC' : 'ASC'} LIMIT 1`;
    case 'first':
    case 'last':
      if (!target) return undefined;
      return `SELECT ${target} AS result FROM ${from}${where([`${target} IS NOT NULL`])} ORDER BY ${order} ${shape === 'first' ? 'ASC' : 'DESC'} LIMIT 1`;
    case 'next':
    case 'previous': {
      if (!target) return undefined;
      const anchor = conditions.at(-1) as string;
      const rest = conditions.slice(0, -1);
      const bound =
        shape === 'next'
          ? `${order} > (SELECT MIN(${order}) FROM ${from} WHERE ${anchor})`
          : `${order} < (SELECT MAX(${order}) FROM ${from} WHERE ${anchor})`;
      const all = [...rest, bound, `${target} IS NOT NULL`];
      return `SELECT ${target} AS result FROM ${from} WHERE ${all.join(' AND ')} ORDER BY ${order} ${shape === 'next' ? 'ASC' : 'DESC'} LIMIT 1`;
    }
    case 'difference': {
      if (conditions.length < 2) return undefined;
      const [a, b] = conditions.slice(-2) as [string, string];
      const rest = conditions.slice(0, -2);
      const value = measure ? `SUM(${measure})` : 'COUNT(*)';
      const side = (condition: string) => `(SELECT ${value} FROM ${from} WHERE ${[...rest, condition].join(' AND ')})`;
      return `SELECT ${side(a)} - ${side(b)} AS result`;
    }
  }
}
