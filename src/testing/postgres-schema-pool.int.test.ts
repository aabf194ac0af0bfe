import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openPostgresStore } from '../store/postgres/store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from './postgres-test-database.ts';
import { PostgresSchemaPool } from './postgres-schema-pool.ts';
import { seededRandom } from './seeded-random.ts';
import { ALICE, documentWrite, ordersTable, unitVector } from './store-conformance/fixtures.ts';

/**
 * What the conformance suite's isolation rests on: a schema the pool hands out again is, object for object and row
 * for row, what a fresh migration makes, whatever the test before did in it; and one it cannot make so is not reused.
 */
const LIMITS = { maxRows: 10, timeoutMs: 10_000 };

describeWithPostgres('postgres schema pool', (url) => {
  const pool = new PostgresSchemaPool(url, 'evident_pool');
  const fresh: string[] = [];
  afterAll(async () => {
    await pool.drop();
    await dropSchemas(url, fresh);
  });

  /** Everything a schema holds, with its name masked: objects, rows of every table, sequences, roles, ingested tables. */
  async function contents(schema: string): Promise<Record<string, unknown>> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const mask = (text: string) => text.replaceAll(schema, '<schema>');
      const tables = await client.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations' ORDER BY 1`,
        [schema],
      );
      const rows: Record<string, string[]> = {};
      for (const { name } of tables.rows) {
        const result = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${name}" t`);
        // A WAL position a migration took (acl_epoch) is the template's, older than a new schema's own (see the pool);
        // the vector log's generation is random to each store made.
        rows[name] = result.rows
          .map((row) =>
            mask(row.row)
              .replace(/\b[0-9A-F]{1,8}\/[0-9A-F]{1,8}\b/g, '<lsn>')
              .replace(/\b[0-9a-f]{32}\b/g, '<generation>'),
          )
          .sort();
      }
      const sequences = await client.query(
        'SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = $1 ORDER BY 1',
        [schema],
      );
      const columns = await client.query<{ column: string }>(
        `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(column_default, '') AS column
         FROM information_schema.columns WHERE table_schema = $1 ORDER BY 1`,
        [schema],
      );
      const ingested = await client.query('SELECT tablename FROM pg_tables WHERE schemaname = $1', [
        `${schema}_tables`,
      ]);
      const roles = await client.query<{ rolname: string }>(
        'SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1) ORDER BY 1',
        [schema],
      );
      return {
        tables: tables.rows.map((table) => table.name),
        columns: columns.rows.map((column) => mask(column.column)),
        rows,
        sequences: sequences.rows,
        ingested: ingested.rows,
        roles: roles.rows.map((role) => mask(role.rolname)),
      };
    } finally {
      await client.end();
    }
  }

  it('hands a used schema out again only as a fresh migration would make it', async () => {
    const used = await pool.take();
    const next = seededRandom(3);
    const store = await openPostgresStore(url, { schema: used });
    await store.putDocument(
      documentWrite({
        docId: 'legal.md',
        acl: ['group:legal'],
        chunks: [{ text: 'indemnity clause', vector: unitVector(next) }],
        tables: [ordersTable()],
      }),
    );
    await store.upsertUser({ name: 'alice', groups: ['legal'] });
    await store.appendAudit({ actor: 'alice', action: 'ask', surface: 'langgraph', questionSha256: 'a'.repeat(64) });
    const [orders] = await store.listTables(ALICE);
    const counted = await store.queryTables(`SELECT count(*) AS n FROM ${orders?.sqlName}`, ALICE, LIMITS);
    expect(counted.rows).toEqual([[3]]);
    await store.close();
    pool.release(used);

    const again = await pool.take();
    expect(again).toBe(used);
    const reference = freshSchema('evident_pool_reference');
    fresh.push(reference);
    await (await openPostgresStore(url, { schema: reference })).close();
    const [reused, migrated] = [await contents(again), await contents(reference)];
    for (const part of Object.keys(migrated))
      expect(JSON.stringify(reused[part]), part).toBe(JSON.stringify(migrated[part]));

    // And it behaves as a new store: ids start where a new store's start.
    const reopened = await openPostgresStore(url, { schema: again });
    const other = await openPostgresStore(url, { schema: reference });
    try {
      expect(await reopened.stats()).toEqual({ documents: 0, chunks: 0, tables: 0, users: 0, embedder: undefined });
      const entry = { actor: 'bob', action: 'ask', surface: 'langgraph', questionSha256: 'b'.repeat(64) } as const;
      expect((await reopened.appendAudit(entry)).id).toBe((await other.appendAudit(entry)).id);
    } finally {
      await reopened.close();
      await other.close();
    }
    pool.release(again);
  });

  it('does not hand out again a schema whose tables were changed, but a newly migrated one', async () => {
    const used = await pool.take();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`ALTER TABLE "${used}".documents ADD COLUMN extra integer`);
    } finally {
      await client.end();
    }
    pool.release(used);
    const next = await pool.take();
    expect(next).not.toBe(used);
    expect((await contents(next)).columns).not.toContainEqual(expect.stringContaining('documents.extra'));
  });
});
