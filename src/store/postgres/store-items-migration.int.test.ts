import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { BEFORE_IDENTITY_MIGRATIONS } from '../../testing/postgres-migration-rollback.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { ALICE, BOB } from '../../testing/store-conformance/fixtures.ts';
import { storeItems } from './migrations/022-store-items.ts';
import { openPostgresStore } from './store.ts';

/** The memories table as the principals migration made it, before the Store API's migrations (items, then their terms) moved it into items. */
const BEFORE_STORE_ITEMS = `${BEFORE_IDENTITY_MIGRATIONS}
  DROP TABLE store_items;
  DROP TABLE store_namespaces;
  CREATE TABLE memories (
    pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    user_name text NOT NULL,
    text text NOT NULL,
    vector vector NOT NULL,
    source text,
    idempotency_key text,
    created_at timestamptz NOT NULL,
    UNIQUE (user_name, idempotency_key)
  );
  DELETE FROM schema_migrations WHERE version >= ${storeItems.version};`;

describeWithPostgres('postgres store items migration', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));

  it("moves every memory into its user's namespace, as it was", async () => {
    const schema = freshSchema('evident_items_upgrade');
    schemas.push(schema);
    await (await openPostgresStore(url, { schema })).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path TO ${schema}, public`);
      await client.query(BEFORE_STORE_ITEMS);
      await client.query(
        `INSERT INTO memories (id, user_name, text, vector, source, idempotency_key, created_at) VALUES
         ('m-1', 'alice', 'Alice prefers invoices in EUR', '[1,0,0]', 'thread:t1', 'run-1:call-1', '2026-01-02T03:04:05Z'),
         ('m-2', 'bob', 'Bob parks at P-9', '[0,1,0]', NULL, NULL, '2026-01-03T00:00:00Z')`,
      );
    } finally {
      await client.end();
    }
    const store = await openPostgresStore(url, { schema });
    try {
      expect(await store.listMemories('alice')).toEqual([
        {
          id: 'm-1',
          user: 'alice',
          text: 'Alice prefers invoices in EUR',
          source: 'thread:t1',
          createdAt: '2026-01-02T03:04:05.000Z',
          namespace: ['users', 'alice', 'memories'],
          key: 'm-1',
        },
      ]);
      expect((await store.getItem(ALICE, ['users', 'alice', 'memories'], 'm-1'))?.value).toEqual({
        text: 'Alice prefers invoices in EUR',
        source: 'thread:t1',
      });
      expect((await store.getItem(BOB, ['users', 'bob', 'memories'], 'm-2'))?.value).toEqual({
        text: 'Bob parks at P-9',
      });
      expect(await store.getItem(BOB, ['users', 'alice', 'memories'], 'm-1')).toBeUndefined();
      const hits = await store.searchMemories('alice', { text: '', vector: new Float32Array([1, 0, 0]) }, 5);
      expect(hits.map((hit) => hit.id)).toEqual(['m-1']);
      const replay = await store.addMemory({
        user: 'alice',
        text: 'replayed',
        vector: new Float32Array([1, 0, 0]),
        idempotencyKey: 'run-1:call-1',
      });
      expect(replay).toMatchObject({ created: false, memory: { id: 'm-1' } });
    } finally {
      await store.close();
    }
  });
});
