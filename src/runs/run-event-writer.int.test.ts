import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEventRecord, Store } from '../store/store.ts';
import { openPostgresStore } from '../store/postgres/store.ts';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { RunEventWriter } from './run-event-writer.ts';

const OWNER = 'process-a';

/** What the writer must do on every backend: batch many runs' events, and fail only the run whose append is refused. */
function describeWriter(name: string, open: () => Promise<Store>): void {
  describe(`run event writer on ${name}`, () => {
    let store: Store;
    let stored: RunEventRecord[];
    let writer: RunEventWriter;
    beforeEach(async () => {
      store = await open();
      stored = [];
      writer = new RunEventWriter(store, OWNER, (events) => stored.push(...events));
    });
    afterEach(async () => store.close());

    const start = (runId: string, owner = OWNER) =>
      store.startRun({
        runId,
        threadId: `thread-${runId}`,
        agent: 'rag',
        user: 'alice',
        question: 'q',
        lease: { owner, ttlMs: 60_000 },
      });
    const event = (runId: string, seq: number): RunEventRecord => ({
      runId,
      seq,
      event: 'custom',
      data: { seq, at: new Date(0) },
    });

    it('stores what several runs append in one turn, in order, and tells of each event once it is stored', async () => {
      await start('w1');
      await start('w2');
      await Promise.all([writer.appendNow(event('w1', 1)), writer.append(event('w2', 1))]);
      await Promise.all([writer.append(event('w1', 2)), writer.append(event('w2', 2))]);
      for (const runId of ['w1', 'w2']) expect((await store.listRunEvents(runId, 0)).map((e) => e.seq)).toEqual([1, 2]);
      expect(stored.map((e) => `${e.runId}:${e.seq}`).sort()).toEqual(['w1:1', 'w1:2', 'w2:1', 'w2:2']);
    });

    it('refuses only the run another process holds; the rest of its batch is stored', async () => {
      await start('mine');
      await start('theirs', 'process-b');
      const results = await Promise.allSettled([
        writer.append(event('mine', 1)),
        writer.append(event('theirs', 1)),
        writer.append(event('mine2', 1)),
      ]);
      expect(results[0]).toEqual({ status: 'fulfilled', value: undefined });
      expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: 'run_lease_lost' } });
      // An unknown run is refused too (nobody holds it), alone.
      expect(results[2]?.status).toBe('rejected');
      expect((await store.listRunEvents('mine', 0)).map((e) => e.seq)).toEqual([1]);
      expect(await store.listRunEvents('theirs', 0)).toEqual([]);
      expect(stored.map((e) => e.runId)).toEqual(['mine']);
    });

    it('refuses a sequence number the run already has, and nothing else', async () => {
      await start('s1');
      await start('s2');
      await writer.append(event('s1', 1));
      const results = await Promise.allSettled([writer.append(event('s1', 1)), writer.append(event('s2', 1))]);
      expect(results[0]).toMatchObject({ status: 'rejected', reason: { code: 'run_event_conflict' } });
      expect(results[1]?.status).toBe('fulfilled');
      expect((await store.listRunEvents('s2', 0)).map((e) => e.seq)).toEqual([1]);
    });
  });
}

const root = mkdtempSync(join(tmpdir(), 'evident-writer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let files = 0;
describeWriter('SQLite', () => openSqliteStore(join(root, `store-${++files}.db`)));

describeWithPostgres('run event writer', (url) => {
  const schemas: string[] = [];
  afterAll(() => dropSchemas(url, schemas));
  describeWriter('Postgres', async () => {
    const schema = freshSchema();
    schemas.push(schema);
    return openPostgresStore(url, { schema });
  });
});
