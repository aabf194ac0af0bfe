import { describe, expect, it } from 'vitest';
import { isEvidentError } from '../errors/index.ts';
import { guardTableQuery, type SqlDialect } from './sql-guard.ts';

const allowedTables = ['tbl_orders', 'tbl_sales'];
const guard = (sql: string, dialect: SqlDialect = 'sqlite') => guardTableQuery(sql, { allowedTables, dialect });
const failure = (sql: string, dialect: SqlDialect = 'sqlite'): string => {
  try {
    guard(sql, dialect);
  } catch (error) {
    expect(isEvidentError(error) && error.code).toBe('query_rejected');
    return (error as Error).message;
  }
  throw new Error(`accepted: ${sql}`);
};

describe('guardTableQuery', () => {
  it.each<SqlDialect>(['sqlite', 'postgresql'])('accepts one SELECT over allowed tables (%s)', (dialect) => {
    expect(guard('SELECT sum("amount usd") FROM tbl_sales GROUP BY region;', dialect)).toEqual({
      sql: 'SELECT sum("amount usd") FROM tbl_sales GROUP BY region',
      tables: ['tbl_sales'],
    });
    expect(guard('WITH t AS (SELECT * FROM TBL_ORDERS) SELECT count(*) FROM t', dialect).tables).toEqual([
      'tbl_orders',
    ]);
    expect(guard("SELECT ';' AS s FROM tbl_orders -- trailing; comment", dialect).tables).toEqual(['tbl_orders']);
  });

  it('refuses a statement longer than its bound before reading it', () => {
    const padded = (n: number) => `SELECT 1 FROM tbl_orders WHERE 1 = 1 ${'AND 1 = 1 '.repeat(n)}`;
    expect(padded(1000).length).toBeGreaterThan(10_000);
    expect(failure(padded(1000))).toContain('more than the 10000 allowed');
    expect(padded(990).length).toBeLessThanOrEqual(10_000);
    expect(guard(padded(990)).tables).toEqual(['tbl_orders']);
  });

  it('leaves syntax its parser does not know to the backend', () => {
    expect(guard('SELECT x, row_number() OVER (ORDER BY x) FROM anything').tables).toBeUndefined();
  });

  it('refuses several statements, non-SELECT statements and writing words', () => {
    expect(failure('SELECT 1; SELECT 2')).toMatch(/several statements/);
    expect(failure('SELECT 1; -- x\n DELETE FROM tbl_orders')).toMatch(/several statements/);
    expect(failure('DELETE FROM tbl_orders')).toMatch(/starts with "DELETE"/);
    expect(failure('WITH x AS (SELECT 1) DELETE FROM tbl_orders')).toMatch(/DELETE is not allowed/);
    expect(failure('SELECT * INTO t2 FROM tbl_orders', 'postgresql')).toMatch(/INTO is not allowed/);
    expect(failure('  ')).toMatch(/empty/);
    // Words inside strings and quoted identifiers are data, not statements.
    expect(guard(`SELECT 'drop; delete' AS "insert" FROM tbl_orders`).tables).toEqual(['tbl_orders']);
  });

  it('refuses other tables and schemas with one text that names none of them', () => {
    const reference = failure('SELECT * FROM tbl_missing');
    for (const sql of [
      'SELECT * FROM documents',
      'SELECT * FROM main.documents',
      'SELECT * FROM temp.tbl_orders',
      'SELECT * FROM tbl_orders WHERE x IN (SELECT doc_id FROM documents)',
      'WITH x AS (SELECT * FROM users) SELECT * FROM x',
    ]) {
      expect(failure(sql), sql).toBe(reference);
    }
    expect(reference).not.toMatch(/documents|users|missing/);
    expect(guard('SELECT * FROM main.tbl_orders').tables).toEqual(['tbl_orders']);
    expect(guard('SELECT * FROM public.tbl_orders', 'postgresql').tables).toEqual(['tbl_orders']);
  });
});
