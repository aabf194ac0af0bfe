import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Principal, TableData } from '../../domain/index.ts';
import { isEvidentError } from '../../errors/index.ts';
import type { DocumentWrite, Store } from '../store.ts';
import { openPostgresStore } from './store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';

const MEMBER: Principal = { id: 'carol', groups: [], roles: ['member'] };
const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
const LIMITS = { maxRows: 5, timeoutMs: 2_000 };

const orders: TableData = {
  title: 'orders',
  columns: [
    { name: 'customer', type: 'text' },
    { name: 'amount', type: 'real' },
  ],
  rows: [
    ['ACME', 10],
    ['Globex', 20],
  ],
};

const write = (docId: string, acl: string[]): DocumentWrite => ({
  document: { docId, source: docId, title: docId, type: 'csv', contentHash: docId, bytes: 1, acl, tags: [] },
  chunks: [{ id: `${docId}#0`, docId, ordinal: 0, text: 'rows', headingPath: [], startOffset: 0, endOffset: 4 }],
  keywordText: ['rows'],
  vectors: [new Float32Array([1, 0, 0, 0])],
  embedder: { id: 'test', dimension: 4 },
  chapters: [],
  tables: [orders],
});

// Postgres-specific ways out of the ingested tables, beyond the conformance suite: functions that read files,
// change the role, run SQL of their own or probe the catalog, however they are spelled.
describeWithPostgres('postgres table queries: the walls around the ingested tables', (url) => {
  const schema = freshSchema('evident_tablequery');
  let store: Store;
  let visible = '';
  let hidden = '';
  beforeAll(async () => {
    store = await openPostgresStore(url, { schema });
    await store.putDocument(write('public.csv', []));
    await store.putDocument(write('board.csv', ['group:board']));
    const names = new Map((await store.listTables(ADMIN)).map((t) => [t.docId, t.sqlName]));
    visible = names.get('public.csv') as string;
    hidden = names.get('board.csv') as string;
  });
  afterAll(async () => {
    await store.close();
    await dropSchemas(url, [schema]);
  });

  const refusal = async (sql: string) => {
    const error: unknown = await store.queryTables(sql, MEMBER, LIMITS).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isEvidentError(error), sql).toBe(true);
    return { code: (error as { code: string }).code, message: (error as Error).message };
  };

  it('runs as a role of its own and refuses every way out with the text a missing table gets', async () => {
    const [[role, rows]] = (await store.queryTables(`SELECT current_user, count(*) FROM ${visible}`, MEMBER, LIMITS))
      .rows as [[string, number]];
    expect([role.startsWith(`${schema}_q_`), rows]).toEqual([true, 2]);
    expect((await store.queryTables(`SELECT current_user, count(*) FROM ${hidden}`, ADMIN, LIMITS)).rows).toEqual([
      [`${schema}_reader`, 2],
    ]);
    expect(
      (await store.queryTables(`SELECT x FROM ${visible}, generate_series(1, 2) x ORDER BY x`, MEMBER, LIMITS)).rows,
    ).toEqual([[1], [1], [2], [2]]);
    const reference = await refusal('SELECT * FROM tbl_no_such_table');
    for (const sql of [
      `SELECT pg_read_file('/etc/passwd') FROM ${visible}`,
      `SELECT U&"\\0070g_read_file"('/etc/passwd') FROM ${visible}`,
      `SELECT set_config('role', current_setting('is_superuser'), true) FROM ${visible}`,
      `SELECT query_to_xml('SELECT * FROM ${hidden}', true, true, '') FROM ${visible}`,
      `SELECT table_to_xml('${hidden}', true, true, '') FROM ${visible}`,
      `SELECT '${schema}.documents'::regclass FROM ${visible}`,
      `SELECT '${schema}.no_such'::regclass FROM ${visible}`,
      `SELECT to_regclass('${hidden}') FROM ${visible}`,
      `SELECT has_table_privilege('${schema}.users', 'select') FROM ${visible}`,
      `SELECT lo_import('/etc/passwd') FROM ${visible}`,
      'SELECT * FROM information_schema.tables',
      'SELECT * FROM pg_catalog.pg_authid',
      `SELECT * FROM ${schema}.users`,
      `SELECT * FROM ${schema}_tables.${hidden}`,
      `SELECT * FROM ${visible} v, LATERAL (SELECT * FROM ${schema}.documents) d`,
      // Functions that run SQL text of their own: the plan shows the call, not the statement it runs.
      `SELECT ts_stat('SELECT to_tsvector(customer) FROM ${hidden}') FROM ${visible}`,
      `SELECT * FROM ${visible}, ts_stat('SELECT to_tsvector(customer) FROM ${hidden}')`,
      `SELECT ts_rewrite('a'::tsquery, 'SELECT ''a''::tsquery, to_tsquery(customer) FROM ${hidden}') FROM ${visible}`,
      `SELECT ts_stat('SELECT to_tsvector(relname) FROM pg_class') FROM ${visible}`,
      `SELECT "ts_stat"('SELECT to_tsvector(customer) FROM ${hidden}') FROM ${visible}`,
      `SELECT pg_catalog.ts_stat('SELECT to_tsvector(customer) FROM ${hidden}') FROM ${visible}`,
    ]) {
      expect(await refusal(sql), sql).toEqual(reference);
    }
  });

  it('stops a long query at its time limit and passes on data errors of a visible table', async () => {
    // CPU without memory: three small materialised series joined without a condition (10^12 rows) never spill to temporary
    // files, so the time limit (not temp_file_limit) is what stops it, however fast the machine.
    expect(
      await refusal(
        `SELECT count(*) FROM ${visible}, generate_series(1, 10000) a, generate_series(1, 10000) b, generate_series(1, 10000) c`,
      ),
    ).toMatchObject({ code: 'query_timeout' });
    expect(await refusal(`SELECT 1 / 0 FROM ${visible}`)).toEqual({
      code: 'query_rejected',
      message: 'The query failed: division by zero.',
    });
  });

  it("lets through the functions the table route's own SQL calls (numbers read from text, aggregates, windows)", async () => {
    // The table route's reading of a number written as text (agent/table-sql numericExpr, on PostgreSQL).
    const amount = `CAST(NULLIF(substring(regexp_replace("customer", '[,#$£€+ ]', '', 'g') from '^-?[0-9]*[.]?[0-9]+'), '') AS double precision)`;
    for (const sql of [
      `SELECT ${amount}, lower(customer), upper(trim(customer)), length(customer) FROM ${visible}`,
      `SELECT customer, ROUND(CAST(SUM(amount) AS numeric), 2), COUNT(DISTINCT customer) FROM ${visible} GROUP BY customer`,
      `SELECT customer, rank() OVER (ORDER BY amount DESC), coalesce(nullif(customer, ''), '-') FROM ${visible}`,
      `SELECT max(amount) - min(amount), avg(amount), string_agg(customer, ', ') FROM ${visible} WHERE customer ILIKE 'a%' OR customer LIKE '%(x)%'`,
      `SELECT extract(year FROM now()), date_trunc('day', now()), to_char(now(), 'YYYY') FROM ${visible}`,
    ]) {
      expect((await store.queryTables(sql, MEMBER, LIMITS)).columns.length, sql).toBeGreaterThan(0);
    }
  });

  it("runs one principal's queries one at a time beside others', refuses a fifth waiting one, and counts the wait", async () => {
    const slow = `SELECT count(*) FROM ${visible}, generate_series(1, 100000) a, generate_series(1, 100000) b`;
    const failureOf = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => error,
      );
    const limits = { maxRows: 5, timeoutMs: 400, maxQueuedPerUser: 4 };
    const queued = Array.from({ length: 3 }, () => failureOf(store.queryTables(slow, MEMBER, limits)));
    const quick = failureOf(
      store.queryTables(`SELECT count(*) FROM ${visible}`, MEMBER, { maxRows: 5, timeoutMs: 100 }),
    );
    expect(await failureOf(store.queryTables(slow, MEMBER, limits))).toMatchObject({ code: 'query_rejected' });
    const started = performance.now();
    expect((await store.queryTables(`SELECT count(*) FROM ${visible}`, ADMIN, LIMITS)).rows).toEqual([[2]]);
    expect(performance.now() - started).toBeLessThan(400);
    for (const failure of await Promise.all(queued)) expect(failure).toMatchObject({ code: 'query_timeout' });
    expect(await quick).toMatchObject({ code: 'query_timeout' });
  });
});
