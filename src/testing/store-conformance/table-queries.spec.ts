import { beforeEach, describe, expect, it } from 'vitest';
import type { Principal, TableData } from '../../domain/index.ts';
import { isEvidentError } from '../../errors/index.ts';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ADMIN, CAROL, documentWrite, expectRejects, ordersTable, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Read-only table queries: one SELECT over the visible ingested tables, bounded in rows and time (the document port). */
export function describeTableQueries(suite: ConformanceSuite): void {
  describe('table queries', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const LIMITS = { maxRows: 100, timeoutMs: 10_000 };
    const salesTable: TableData = {
      title: 'sales',
      columns: [
        { name: 'region', type: 'text' },
        { name: 'amount usd', type: 'real' },
        { name: 'units', type: 'integer' },
      ],
      rows: [
        ['EMEA', 100.5, 1],
        ['NA', 20.25, 2],
        ['EMEA', 300, 3],
        ['APAC', 7.75, 4],
        ['NA', 80, 5],
        ['EMEA', null, 6],
      ],
    };
    let sales = '';
    let publicOrders = '';
    let secretOrders = '';

    beforeEach(async () => {
      const next = random(17);
      await store.putDocument(
        documentWrite({
          docId: 'sales.csv',
          chunks: [{ text: 'sales rows', vector: unitVector(next) }],
          tables: [salesTable],
        }),
      );
      await store.putDocument(
        documentWrite({
          docId: 'orders.csv',
          chunks: [{ text: 'order rows', vector: unitVector(next) }],
          tables: [ordersTable()],
        }),
      );
      await store.putDocument(
        documentWrite({
          docId: 'secret.csv',
          acl: ['group:board'],
          chunks: [{ text: 'secret rows', vector: unitVector(next) }],
          tables: [ordersTable('secret orders')],
        }),
      );
      const byDoc = new Map((await store.listTables(ADMIN)).map((table) => [table.docId, table.sqlName]));
      sales = byDoc.get('sales.csv') as string;
      publicOrders = byDoc.get('orders.csv') as string;
      secretOrders = byDoc.get('secret.csv') as string;
    });

    async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string; hint: string }> {
      const error: unknown = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isEvidentError(error), `expected an Evident error, got ${String(error)}`).toBe(true);
      const { code, message, hint } = error as { code: string; message: string; hint?: string };
      return { code, message, hint: hint ?? '' };
    }

    it('aggregates with GROUP BY over an ingested table', async () => {
      const result = await store.queryTables(
        `SELECT region, SUM("amount usd") AS total, COUNT(*) AS n, MAX(units) AS top
         FROM ${sales} GROUP BY region ORDER BY region;`,
        CAROL,
        LIMITS,
      );
      expect(result).toEqual({
        columns: ['region', 'total', 'n', 'top'],
        rows: [
          ['APAC', 7.75, 1, 4],
          ['EMEA', 400.5, 3, 6],
          ['NA', 100.25, 2, 5],
        ],
        truncated: false,
      });
      const filtered = await store.queryTables(
        `WITH paid AS (SELECT * FROM ${publicOrders} WHERE paid = 1) SELECT "order id", customer FROM paid`,
        CAROL,
        LIMITS,
      );
      expect(filtered.rows).toEqual([[1, 'ACME']]);
    });

    it('joins visible tables and runs syntax the guard cannot parse (window functions)', async () => {
      const ranked = await store.queryTables(
        `SELECT region, units, row_number() OVER (PARTITION BY region ORDER BY units DESC) AS r FROM ${sales} ORDER BY region, r`,
        CAROL,
        LIMITS,
      );
      expect(ranked.rows.map((row) => row[2])).toEqual([1, 1, 2, 3, 1, 2]);
      const joined = await store.queryTables(
        `SELECT o.customer, s.region FROM ${publicOrders} o JOIN ${sales} s ON s.units = o."order id" ORDER BY o."order id"`,
        CAROL,
        LIMITS,
      );
      expect(joined.rows).toEqual([
        ['ACME', 'EMEA'],
        ['Globex', 'NA'],
        ['Initech', 'EMEA'],
      ]);
    });

    it('refuses anything but one read-only SELECT, and changes nothing', async () => {
      const statements = [
        `INSERT INTO ${sales} VALUES ('X', 1, 1)`,
        `UPDATE ${sales} SET units = 0`,
        `DELETE FROM ${sales}`,
        `DROP TABLE ${sales}`,
        `CREATE TABLE copy AS SELECT * FROM ${sales}`,
        `ATTACH DATABASE ':memory:' AS other`,
        `PRAGMA table_info(${sales})`,
        `SELECT 1; SELECT 2`,
        `SELECT * FROM ${sales}; DELETE FROM ${sales}`,
        `WITH gone AS (SELECT 1) DELETE FROM ${sales}`,
        `SELECT * INTO copy FROM ${sales}`,
        'VACUUM',
        'BEGIN',
        '',
        '   ;  ',
      ];
      for (const sql of statements) {
        const error = await rejection(store.queryTables(sql, ADMIN, LIMITS));
        expect(error.code, sql).toBe('query_rejected');
        expect(error.message, sql).toMatch(/SELECT/);
      }
      const count = await store.queryTables(`SELECT count(*) FROM ${sales}`, ADMIN, LIMITS);
      expect(count.rows).toEqual([[6]]);
      expect((await store.listTables(ADMIN)).map((table) => table.rowCount)).toEqual([3, 6, 3]);
      // Semicolons inside strings and a trailing one are fine.
      const literal = await store.queryTables(`SELECT 'a;b' AS s, count(*) FROM ${sales} -- done;`, ADMIN, LIMITS);
      expect(literal.rows).toEqual([['a;b', 6]]);
    });

    it('refuses every table but the visible ingested ones, with the text a missing table gets', async () => {
      const reference = await rejection(store.queryTables('SELECT * FROM tbl_no_such_table', CAROL, LIMITS));
      expect(reference.code).toBe('query_rejected');
      expect(`${reference.message} ${reference.hint}`).toContain(sales);
      const forbidden = [
        'SELECT * FROM documents',
        'SELECT text FROM chunks',
        'SELECT * FROM chunk_fts',
        'SELECT * FROM users',
        'SELECT * FROM document_acl',
        'SELECT * FROM sqlite_master',
        'SELECT * FROM sqlite_schema',
        'SELECT * FROM sqlite_temp_master',
        "SELECT * FROM pragma_table_info('documents')",
        'SELECT * FROM pragma_database_list',
        "SELECT * FROM json_each('[1, 2]')",
        `SELECT * FROM main.${sales}`.replace('main.', 'other_db.'),
        `SELECT * FROM ${secretOrders}`,
        `SELECT customer FROM ${secretOrders} WHERE paid = 1`,
        `SELECT * FROM ${sales} WHERE region IN (SELECT customer FROM ${secretOrders})`,
        `SELECT (SELECT count(*) FROM documents) FROM ${sales}`,
        `SELECT region FROM ${sales} UNION SELECT doc_id FROM documents`,
        'WITH x AS (SELECT * FROM users) SELECT * FROM x',
        // The guard's parser does not know window functions: the backend's own check must hold.
        'SELECT row_number() OVER () FROM documents',
        `SELECT no_such_column, row_number() OVER () FROM ${secretOrders}`,
        'SELECT no_such_column, row_number() OVER () FROM tbl_no_such_table',
        `SELECT row_number() OVER (), * FROM ${sales}, pragma_table_info('users')`,
      ];
      for (const sql of forbidden) {
        const error = await rejection(store.queryTables(sql, CAROL, LIMITS));
        expect(error, sql).toEqual(reference);
        expect(error.message, sql).not.toContain(secretOrders);
      }
      // The table is there for a principal who may see it.
      expect((await store.queryTables(`SELECT count(*) FROM ${secretOrders}`, ADMIN, LIMITS)).rows).toEqual([[3]]);
      const boardMember: Principal = { id: 'erin', groups: ['board'], roles: ['member'] };
      expect((await store.queryTables(`SELECT max(amount) FROM ${secretOrders}`, boardMember, LIMITS)).rows).toEqual([
        [20],
      ]);
    });

    it('reports a wrong column without refusing the table', async () => {
      const error = await rejection(store.queryTables(`SELECT no_such_column FROM ${sales}`, CAROL, LIMITS));
      expect(error.code).toBe('query_rejected');
      expect(error.message).toContain('no_such_column');
    });

    it('returns at most maxRows rows and says when there were more', async () => {
      const limited = await store.queryTables(`SELECT units FROM ${sales} ORDER BY units`, CAROL, {
        ...LIMITS,
        maxRows: 4,
      });
      expect(limited).toEqual({ columns: ['units'], rows: [[1], [2], [3], [4]], truncated: true });
      const exact = await store.queryTables(`SELECT units FROM ${sales} ORDER BY units`, CAROL, {
        ...LIMITS,
        maxRows: 6,
      });
      expect(exact.truncated).toBe(false);
      expect(exact.rows).toHaveLength(6);
      const generated = await store.queryTables(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT i FROM n',
        CAROL,
        { ...LIMITS, maxRows: 10 },
      );
      expect(generated.rows).toEqual([[1], [2], [3], [4], [5], [6], [7], [8], [9], [10]]);
      expect(generated.truncated).toBe(true);
      await expectRejects(
        store.queryTables(`SELECT * FROM ${sales}`, CAROL, { maxRows: 0, timeoutMs: 1000 }),
        'invalid_input',
      );
    });

    it('stops a query that runs past the time limit, then runs the next one', async () => {
      const endless = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n';
      const error = await rejection(store.queryTables(endless, CAROL, { maxRows: 10, timeoutMs: 300 }));
      expect(error.code).toBe('query_timeout');
      expect(error.message).toContain('300 ms');
      expect((await store.queryTables(`SELECT sum(units) FROM ${sales}`, CAROL, LIMITS)).rows).toEqual([[21]]);
    });

    it('sees the current version of a table', async () => {
      expect((await store.queryTables(`SELECT count(*) FROM ${sales}`, CAROL, LIMITS)).rows).toEqual([[6]]);
      await store.putDocument(
        documentWrite({
          docId: 'sales.csv',
          contentHash: 'v2',
          chunks: [{ text: 'fewer sales rows', vector: unitVector(random(18)) }],
          tables: [{ ...salesTable, rows: salesTable.rows.slice(0, 2) }],
        }),
      );
      const [table] = (await store.listTables(CAROL)).filter((t) => t.docId === 'sales.csv');
      const result = await store.queryTables(`SELECT sum(units) FROM ${table?.sqlName ?? ''}`, CAROL, LIMITS);
      expect(result.rows).toEqual([[3]]);
      // Once the document becomes restricted, its table is refused like any other.
      await store.putDocument(
        documentWrite({
          docId: 'sales.csv',
          contentHash: 'v3',
          acl: ['group:board'],
          chunks: [{ text: 'restricted sales rows', vector: unitVector(random(19)) }],
          tables: [salesTable],
        }),
      );
      const name = (await store.listTables(ADMIN)).find((t) => t.docId === 'sales.csv')?.sqlName ?? '';
      const error = await rejection(store.queryTables(`SELECT * FROM ${name}`, CAROL, LIMITS));
      expect(error).toEqual(await rejection(store.queryTables('SELECT * FROM tbl_no_such_table', CAROL, LIMITS)));
    });
  });
}
