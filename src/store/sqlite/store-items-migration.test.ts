import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { ALICE, BOB } from '../../testing/store-conformance/fixtures.ts';
import { migrate } from './migrate.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { storeItems } from './migrations/021-store-items.ts';
import { openSqliteStore } from './store.ts';
import { vectorToBlob } from './vectors/vector-codec.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-store-items-migration-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("moves every memory of a store from before the Store API into its user's namespace, as it was", async () => {
  const path = join(root, 'old.db');
  const db = new Database(path);
  migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version < storeItems.version),
    { location: path },
  );
  const insert = db.prepare(
    `INSERT INTO memories (id, user_name, text, vector, source, idempotency_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  insert.run(
    'm-1',
    'alice',
    'Alice prefers invoices in EUR',
    vectorToBlob(new Float32Array([1, 0, 0])),
    'thread:t1',
    'run-1:call-1',
    '2026-01-02T03:04:05.000Z',
  );
  insert.run(
    'm-2',
    'bob',
    'Bob parks at P-9',
    vectorToBlob(new Float32Array([0, 1, 0])),
    null,
    null,
    '2026-01-03T00:00:00.000Z',
  );
  db.close();

  const store = await openSqliteStore(path);
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
    expect(await store.getItem(ALICE, ['users', 'alice', 'memories'], 'm-1')).toEqual({
      namespace: ['users', 'alice', 'memories'],
      key: 'm-1',
      value: { text: 'Alice prefers invoices in EUR', source: 'thread:t1' },
      createdAt: '2026-01-02T03:04:05.000Z',
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
    expect((await store.getItem(BOB, ['users', 'bob', 'memories'], 'm-2'))?.value).toEqual({
      text: 'Bob parks at P-9',
    });
    expect(await store.getItem(BOB, ['users', 'alice', 'memories'], 'm-1')).toBeUndefined();
    // The vector and the idempotency key came along.
    const hits = await store.searchMemories('alice', { text: '', vector: new Float32Array([1, 0, 0]) }, 5);
    expect(hits.map((hit) => [hit.id, Math.round(hit.score * 1000) / 1000])).toEqual([['m-1', 1]]);
    // A moved row has no stored terms: its words are read from its text.
    const byWords = await store.searchMemories(
      'alice',
      { text: 'invoices in EUR', vector: new Float32Array([0, 0, 1]) },
      5,
    );
    expect(byWords.map((hit) => [hit.id, hit.score])).toEqual([['m-1', 1]]);
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
