import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { Principal } from '../../domain/index.ts';
import { ADMIN, documentWrite, unitVector } from '../../testing/store-conformance/fixtures.ts';
import { dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { describeWith } from '../../testing/requirements.ts';
import { seededRandom } from '../../testing/seeded-random.ts';
import { openPostgresStore, type PostgresStore } from './store.ts';
import { readReplicaDatabases } from '../../testing/read-replica-databases.ts';
import type { ReadReplicaOptions } from './read-replicas.ts';

const run = promisify(execFile);
const SCRIPT = resolve(import.meta.dirname, '../../../scripts/start-postgres-replica.sh');

const next = seededRandom(14);
const doc = (docId: string, word: string) =>
  documentWrite({ docId, chunks: [{ text: `${word} notes`, keywords: word, vector: unitVector(next) }] });
const docIds = async (store: PostgresStore, principal: Principal = ADMIN) =>
  (await store.listDocuments(principal)).map((d) => d.docId);
const lease = { owner: 'test-process', ttlMs: 60_000 };

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeWith(readReplicaDatabases(), 'postgres read replicas', ({ primary, standby }) => {
  const schemas = new Set<string>();
  const stores: PostgresStore[] = [];
  const port = (url: string) => new URL(url).port || '5432';
  const pauseReplay = () => query(standby, 'SELECT pg_wal_replay_pause()');
  const resumeReplay = () => query(standby, 'SELECT pg_wal_replay_resume()');

  /** Waits until the standby has replayed everything the primary has inserted so far. */
  async function caughtUp(): Promise<void> {
    const [{ position } = { position: '' }] = await query<{ position: string }>(
      primary,
      'SELECT pg_current_wal_insert_lsn()::text AS position',
    );
    await waitFor(
      `the standby to replay ${position}`,
      async () =>
        (await query<{ ok: boolean }>(standby, `SELECT pg_last_wal_replay_lsn() >= '${position}'::pg_lsn AS ok`))[0]
          ?.ok === true,
    );
  }

  afterAll(async () => {
    await resumeReplay().catch(() => undefined);
    for (const store of stores) await store.close();
    await dropSchemas(primary, schemas);
  });

  /** A store on a fresh schema reading from the standby, and a second handle on the same schema without one. */
  async function open(
    replicas: ReadReplicaOptions = {},
  ): Promise<{ store: PostgresStore; writer: PostgresStore; schema: string }> {
    const schema = freshSchema('evident_replica');
    schemas.add(schema);
    const store = await openPostgresStore(primary, {
      schema,
      readUrls: [standby],
      readReplicas: { checkIntervalMs: 50, ...replicas },
    });
    const writer = await openPostgresStore(primary, { schema });
    stores.push(store, writer);
    await waitFor('the standby to be in use', async () => {
      await store.checkReadReplicas();
      return store.readReplicaStatus()[0]?.state === 'up';
    });
    // The store's reads need what the primary had when it opened; once replayed, they go to the standby.
    await caughtUp();
    return { store, writer, schema };
  }
  const reads = (store: PostgresStore) => store.readReplicaStatus()[0]?.reads ?? 0;

  it('runs reads on the standby (pg_is_in_recovery) and a write on the primary', async () => {
    // A wide lag bound: under a full test run other files write to the same cluster, and the standby may fall seconds
    // behind its primary without being less fit for this store's reads (which wait for their own write).
    const { store } = await open({ maxLagMs: 120_000 });
    const before = reads(store);
    await store.putDocument(doc('a.md', 'lighthouse'));
    // The write is on the primary; this process's reads see it at once, on the primary until the standby replays it,
    // then on the standby.
    await waitFor('a read on the standby', async () => {
      expect(await docIds(store)).toEqual(['a.md']);
      expect((await store.keywordSearch(['lighthouse'], ADMIN, 5)).map((hit) => hit.chunkId)).toEqual(['a.md#0']);
      return reads(store) >= before + 2;
    });
    const [onStandby] = await query<{ recovering: boolean; rows: number }>(
      standby,
      `SELECT pg_is_in_recovery() AS recovering, (SELECT count(*)::int FROM "${[...schemas].at(-1)}".documents) AS rows`,
    );
    expect(onStandby).toEqual({ recovering: true, rows: 1 });
  });

  it("never shows documents from a standby behind another process's document write, within the lag bound or not", async () => {
    const { store, writer } = await open({ maxLagMs: 120_000 });
    await writer.putDocument(doc('a.md', 'lighthouse'));
    await caughtUp();
    await waitFor('a read of a.md on the standby', async () => {
      const before = reads(store);
      return (await docIds(store)).includes('a.md') && reads(store) === before + 1;
    });
    await pauseReplay();
    try {
      // Another process narrows who may read a.md (and writes b.md): the paused standby, well within the lag bound,
      // still holds the old ACL, so this store's reads of documents go to the primary until it has replayed the change.
      expect(await writer.updateDocumentAcl('a.md', 'hash-a.md', ['group:legal'])).toBe(true);
      await writer.putDocument(doc('b.md', 'harbour'));
      const before = reads(store);
      const member: Principal = { id: 'bob', groups: ['engineering'], roles: ['member'] };
      expect(await docIds(store, member)).toEqual(['b.md']);
      expect(await store.keywordSearch(['lighthouse'], member, 5)).toEqual([]);
      expect(reads(store)).toBe(before);
    } finally {
      await resumeReplay();
    }
    await waitFor('reads of documents on the standby again', async () => {
      const before = reads(store);
      return (await docIds(store)).includes('b.md') && reads(store) === before + 1;
    });
  });

  it("reads a thread's own writes at once while the standby is paused; other threads still read the standby", async () => {
    const { store, writer } = await open({ maxLagMs: 120_000 });
    await writer.createThread({ threadId: 'other', owner: 'ann' });
    await caughtUp();
    expect((await store.listThreads('ann')).map((t) => t.threadId)).toEqual(['other']);
    await pauseReplay();
    try {
      await store.startRun({
        runId: 'r1',
        threadId: 'mine',
        agent: 'rag',
        user: 'ann',
        question: 'Where is the lighthouse?',
        lease,
      });
      expect((await store.listRuns('mine', 'ann')).map((r) => r.runId)).toEqual(['r1']);
      await store.finishRun('r1', { status: 'answered' });
      expect((await store.listRuns('mine', 'ann')).map((r) => r.status)).toEqual(['answered']);
      expect((await store.listThreads('ann')).map((t) => t.threadId).sort()).toEqual(['mine', 'other']);
      await store.putDocument(doc('c.md', 'beacon'));
      expect(await docIds(store)).toEqual(['c.md']);
      // A run another process started on the other thread: not yet on the paused standby, where this read goes.
      await writer.startRun({
        runId: 'r2',
        threadId: 'other',
        agent: 'rag',
        user: 'ann',
        question: 'And the harbour?',
        lease,
      });
      const before = reads(store);
      expect(await store.listRuns('other', 'ann')).toEqual([]);
      expect(reads(store)).toBe(before + 1);
    } finally {
      await resumeReplay();
    }
    await waitFor('the standby to replay r2', async () => (await store.listRuns('other', 'ann')).length === 1);
  });

  it('a store opened after a write reads it, though the standby has not replayed it', async () => {
    const { writer, schema } = await open({ maxLagMs: 120_000 });
    await pauseReplay();
    try {
      await writer.putDocument(doc('g.md', 'pier'));
      const later = await openPostgresStore(primary, {
        schema,
        readUrls: [standby],
        readReplicas: { checkIntervalMs: 50, maxLagMs: 120_000 },
      });
      stores.push(later);
      expect(await docIds(later)).toEqual(['g.md']);
      expect(reads(later)).toBe(0);
    } finally {
      await resumeReplay();
    }
  });

  it('skips a standby lagging beyond the bound, and uses it again once it catches up', async () => {
    const { store, writer } = await open({ maxLagMs: 300 });
    await pauseReplay();
    try {
      await writer.putDocument(doc('d.md', 'lantern'));
      await waitFor('the standby to count as lagging', () => store.readReplicaStatus()[0]?.state === 'lagging');
      const before = reads(store);
      // Beyond the bound the read runs on the primary, which has d.md.
      expect(await docIds(store)).toEqual(['d.md']);
      expect(reads(store)).toBe(before);
    } finally {
      await resumeReplay();
    }
    await waitFor('the standby to be in use again', () => store.readReplicaStatus()[0]?.state === 'up');
    // Within the bound again, it serves reads (another process's write shows there once replayed).
    await waitFor('a read of d.md on the standby', async () => {
      const before = reads(store);
      return (await docIds(store)).includes('d.md') && reads(store) === before + 1;
    });
  });

  it('skips a standby stopped mid-test, reads on the primary meanwhile, and returns to it once it is back', async () => {
    const { store } = await open({ retryAfterMs: 200, maxLagMs: 120_000 });
    await store.putDocument(doc('e.md', 'mooring'));
    expect(await docIds(store)).toEqual(['e.md']);
    await run(SCRIPT, ['--stop', port(standby)]);
    try {
      // The pooled connections to the standby die with it: the read fails there and runs again on the primary.
      expect(await docIds(store)).toEqual(['e.md']);
      expect((await store.keywordSearch(['mooring'], ADMIN, 5)).map((hit) => hit.chunkId)).toEqual(['e.md#0']);
      expect(store.readReplicaStatus()[0]?.state).toBe('down');
      await store.putDocument(doc('f.md', 'quay'));
      expect(await docIds(store)).toEqual(['e.md', 'f.md']);
    } finally {
      await run(SCRIPT, [port(standby), port(primary)]);
    }
    await waitFor('the restarted standby to be in use', () => store.readReplicaStatus()[0]?.state === 'up');
    // Up is not yet caught up: until the standby has replayed this store's own write of f.md, reads stay on the primary.
    await waitFor('a read of f.md on the standby', async () => {
      const before = reads(store);
      return (await docIds(store)).includes('f.md') && reads(store) === before + 1;
    });
  }, 60_000);
});
