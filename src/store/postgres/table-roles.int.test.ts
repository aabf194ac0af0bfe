import pg from 'pg';
import { BEFORE_PLATFORM_MIGRATIONS } from '../../testing/postgres-migration-rollback.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Principal, TableData } from '../../domain/index.ts';
import { isEvidentError } from '../../errors/index.ts';
import type { DocumentWrite, Store } from '../store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { parsePostgresUrl } from './connection.ts';
import { schemaNames } from './migrations/index.ts';
import { openPostgresStore } from './store.ts';
import { assumeQueryRole, tableRoleName } from './table-roles.ts';

const MEMBER: Principal = { id: 'carol', groups: ['sales'], roles: ['member'] };
const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
const LIMITS = { maxRows: 50, timeoutMs: 5_000 };
/** What the board's table holds: no query of a member may return it, in a cell or a message. */
const SECRET = 'SECRET-ROW';

const table = (customer: string): TableData => ({
  title: 'orders',
  columns: [
    { name: 'customer', type: 'text' },
    { name: 'amount', type: 'real' },
  ],
  rows: [
    [customer, 10],
    [`${customer} two`, 20],
  ],
});
const write = (docId: string, acl: string[], customer: string): DocumentWrite => ({
  document: { docId, source: docId, title: docId, type: 'csv', contentHash: docId, bytes: 1, acl, tags: [] },
  chunks: [{ id: `${docId}#0`, docId, ordinal: 0, text: 'rows', headingPath: [], startOffset: 0, endOffset: 4 }],
  keywordText: ['rows'],
  vectors: [new Float32Array([1, 0, 0, 0])],
  embedder: { id: 'test', dimension: 4 },
  chapters: [],
  tables: [table(customer)],
});

// Issue 26's severe hole: functions that run SQL text of their own ran as a role that could read every ingested
// table. Now the server itself refuses a member's query another group's table, however the statement reaches it.
describeWithPostgres('postgres table queries: the server enforces who reads which table', (url) => {
  const schema = freshSchema('evident_tableroles');
  const names = schemaNames(schema);
  let store: Store;
  let sales = '';
  let board = '';
  beforeAll(async () => {
    store = await openPostgresStore(url, { schema });
    await store.putDocument(write('sales.csv', ['group:sales'], 'ACME'));
    await store.putDocument(write('board.csv', ['group:board'], SECRET));
    const byDoc = new Map((await store.listTables(ADMIN)).map((t) => [t.docId, t.sqlName]));
    sales = byDoc.get('sales.csv') as string;
    board = byDoc.get('board.csv') as string;
  });
  afterAll(async () => {
    await store.close();
    await dropSchemas(url, [schema]);
  });

  /** Runs `sql` on a raw connection as the role a member of the sales group gets, below every text check. */
  const asSalesRole = async (sql: string): Promise<{ rows?: unknown[]; code?: string }> => {
    const client = new pg.Client({ connectionString: parsePostgresUrl(url, schema).connectionString });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL search_path = "${names.tables}"`);
      await assumeQueryRole(client as unknown as pg.PoolClient, names, [sales]);
      return { rows: (await client.query(sql)).rows };
    } catch (error) {
      return { code: (error as { code?: string }).code ?? 'none' };
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
  };

  it("denies a member's role another group's table, directly and through SQL that a function runs", async () => {
    expect((await asSalesRole(`SELECT count(*)::int AS n FROM ${sales}`)).rows).toEqual([{ n: 2 }]);
    for (const sql of [
      `SELECT * FROM ${board}`,
      `SELECT * FROM ts_stat('SELECT to_tsvector(customer) FROM ${board}')`,
      `SELECT query_to_xml('SELECT * FROM ${board}', true, true, '')`,
      `SELECT * FROM ${schema}.documents`,
    ]) {
      expect(await asSalesRole(sql), sql).toEqual({ code: '42501' });
    }
    // The role was the transaction's: nothing of it stays behind.
    const admin = new pg.Client({ connectionString: parsePostgresUrl(url, schema).connectionString });
    await admin.connect();
    const left = await admin.query(`SELECT count(*)::int AS n FROM pg_roles WHERE starts_with(rolname, $1)`, [
      `${schema}_q_`,
    ]);
    await admin.end();
    expect(left.rows).toEqual([{ n: 0 }]);
  });

  it('reads a table a member just lost as denied, and one just given as readable, at the moment of use', async () => {
    const count = `SELECT count(*) FROM ${board}`;
    const outsider: Principal = { id: 'dana', groups: ['board'], roles: ['member'] };
    expect((await store.queryTables(count, outsider, LIMITS)).rows).toEqual([[2]]);
    await store.updateDocumentAcl('board.csv', 'board.csv', ['group:audit']);
    const error = await store.queryTables(count, outsider, LIMITS).catch((caught: unknown) => caught);
    expect(isEvidentError(error)).toBe(true);
    await store.updateDocumentAcl('board.csv', 'board.csv', ['group:board']);
    expect((await store.queryTables(count, outsider, LIMITS)).rows).toEqual([[2]]);
  });

  it('walks every function of pg_proc that takes text: none returns a row of a table the member may not read', async () => {
    // The catalog, read on the store's own connection, lists the functions; each is then called as a member would.
    const client = new pg.Client({ connectionString: parsePostgresUrl(url, schema).connectionString });
    await client.connect();
    const { rows } = await client.query<{ call: string }>(
      `SELECT DISTINCT format('%I(%s)', p.proname, string_agg(
         CASE WHEN t = 'text'::regtype THEN quote_literal($1) WHEN t = 'bool'::regtype THEN 'true'
           ELSE 'NULL::' || format_type(t, NULL) END, ', '
         ORDER BY ord)) AS call
       FROM pg_proc p, unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, ord)
       WHERE p.prokind = 'f' AND p.pronargs BETWEEN 1 AND 4 AND 'text'::regtype = ANY (p.proargtypes::oid[])
       GROUP BY p.oid, p.proname`,
      [`SELECT to_tsvector(customer) FROM ${board}`],
    );
    await client.end();
    expect(rows.length).toBeGreaterThan(100);
    const leaks: string[] = [];
    let refused = 0;
    for (const { call } of rows) {
      const sql = `SELECT ${call} FROM ${sales}`;
      try {
        const result = await store.queryTables(sql, MEMBER, LIMITS);
        if (JSON.stringify(result.rows).toLowerCase().includes(SECRET.toLowerCase())) leaks.push(sql);
      } catch (error) {
        if (!isEvidentError(error)) throw error;
        refused++;
        if ((error as Error).message.toLowerCase().includes(SECRET.toLowerCase())) leaks.push(sql);
      }
    }
    expect(leaks).toEqual([]);
    expect(refused).toBeGreaterThan(0);
  }, 120_000);

  it('gives the tables of a store ingested before the table roles (schema 10) their roles when it opens', async () => {
    const older = freshSchema('evident_tableroles_upgrade');
    const olderNames = schemaNames(older);
    const before = await openPostgresStore(url, { schema: older });
    await before.putDocument(write('sales.csv', ['group:sales'], 'ACME'));
    const sqlName = (await before.listTables(ADMIN))[0]?.sqlName as string;
    await before.close();
    const client = new pg.Client({ connectionString: parsePostgresUrl(url, older).connectionString });
    await client.connect();
    const role = tableRoleName(olderNames, sqlName);
    await client.query(`REVOKE SELECT ON "${olderNames.tables}"."${sqlName}" FROM "${role}"`);
    await client.query(`DROP ROLE "${role}"`);
    await client.query(`REVOKE USAGE ON SCHEMA "${olderNames.tables}" FROM "${older}_usage"`);
    await client.query(`DROP ROLE "${older}_usage"`);
    // What schema 10 had: none of the later steps (11 the table roles, 12 the audit chain, 13 the ACL epoch, 14 the
    // documents' metadata and parent, 15 the tables' descriptions, 16 the chunks' row regions, and all after).
    await client.query(`SET search_path = "${older}"`);
    await client.query(BEFORE_PLATFORM_MIGRATIONS);
    await client.query(`ALTER TABLE "${older}".audit_log DROP COLUMN chain`);
    await client.query(`DROP TABLE "${older}".acl_epoch`);
    await client.query(`ALTER TABLE "${older}".documents DROP COLUMN metadata, DROP COLUMN parent_doc_id`);
    await client.query(`ALTER TABLE "${older}".doc_tables DROP COLUMN description`);
    await client.query(`ALTER TABLE "${older}".chunks DROP COLUMN regions`);
    await client.query(`DELETE FROM "${older}".schema_migrations WHERE version >= 11`);
    await client.end();
    const after = await openPostgresStore(url, { schema: older });
    try {
      expect((await after.queryTables(`SELECT count(*) FROM ${sqlName}`, MEMBER, LIMITS)).rows).toEqual([[2]]);
    } finally {
      await after.close();
      await dropSchemas(url, [older]);
    }
  });
});
