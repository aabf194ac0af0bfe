import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../domain/index.ts';
import { openSqliteStore } from '../store.ts';

const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };

async function memoryStoreWithTable(path = ':memory:') {
  const store = await openSqliteStore(path);
  await store.putDocument({
    document: {
      docId: 'n.csv',
      source: '/n.csv',
      title: 'n',
      type: 'csv',
      contentHash: 'h',
      bytes: 1,
      acl: [],
      tags: [],
    },
    chunks: [{ id: 'n.csv#0', docId: 'n.csv', ordinal: 0, text: 'n', headingPath: [], startOffset: 0, endOffset: 1 }],
    keywordText: ['n'],
    vectors: [Float32Array.from([1, 0])],
    embedder: { id: 'e', dimension: 2 },
    chapters: [],
    tables: [{ title: 'n', columns: [{ name: 'v', type: 'integer' }], rows: [[1], [2], [3]] }],
  });
  const [table] = await store.listTables(ADMIN);
  return { store, table: table?.sqlName ?? '' };
}

/** This process's table-query children (the child script, whether started through `sh -c ulimit …; exec`). */
const queryChildren = (): number[] =>
  execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('child.cjs'))
    .map((line) => Number.parseInt(line.trim(), 10));

describe('SQLite table queries', () => {
  it.runIf(process.platform === 'linux')(
    'start their process ahead when asked, run the first query in it, and leave none behind on close',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'evident-table-prewarm-'));
      const { store, table } = await memoryStoreWithTable(join(dir, 'store.db'));
      try {
        expect(queryChildren()).toEqual([]);
        store.prepareTableQueries?.();
        store.prepareTableQueries?.();
        const started = queryChildren();
        expect(started).toHaveLength(1);
        const limits = { maxRows: 5, timeoutMs: 5000 };
        expect((await store.queryTables(`SELECT sum(v) FROM ${table}`, ADMIN, limits)).rows).toEqual([[6]]);
        expect(queryChildren()).toEqual(started);
      } finally {
        await store.close();
        await rm(dir, { recursive: true, force: true });
      }
      expect(queryChildren()).toEqual([]);
    },
  );

  it('work on an in-memory store, and see its latest writes', async () => {
    const { store, table } = await memoryStoreWithTable();
    try {
      expect(
        (await store.queryTables(`SELECT sum(v) FROM ${table}`, ADMIN, { maxRows: 5, timeoutMs: 5000 })).rows,
      ).toEqual([[6]]);
      await store.deleteDocument('n.csv');
      await expect(
        store.queryTables(`SELECT sum(v) FROM ${table}`, ADMIN, { maxRows: 5, timeoutMs: 5000 }),
      ).rejects.toMatchObject({
        code: 'query_rejected',
      });
    } finally {
      await store.close();
    }
  });

  it('queue behind a query that times out, and run once it is stopped', async () => {
    const { store, table } = await memoryStoreWithTable();
    try {
      const endless = store.queryTables(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n',
        ADMIN,
        {
          maxRows: 1,
          timeoutMs: 200,
        },
      );
      const next = store.queryTables(`SELECT count(*) FROM ${table}`, ADMIN, { maxRows: 1, timeoutMs: 5000 });
      await expect(endless).rejects.toMatchObject({ code: 'query_timeout' });
      expect((await next).rows).toEqual([[3]]);
    } finally {
      await store.close();
    }
  });

  // Linux bounds the query process's data segment (RLIMIT_DATA); elsewhere the byte bounds alone apply.
  it.runIf(process.platform === 'linux')(
    "stop a query whose values outgrow the query process's memory, named by its setting",
    async () => {
      const { store } = await memoryStoreWithTable();
      const wide = {
        maxRows: 1,
        timeoutMs: 20_000,
        maxResultBytes: 256 * 1024 * 1024,
        maxValueBytes: 256 * 1024 * 1024,
      };
      try {
        const error = await store
          .queryTables('SELECT zeroblob(100000000)', ADMIN, { ...wide, maxMemoryBytes: 64 * 1024 * 1024 })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({
          code: 'query_too_large',
          details: { bound: 'memory', limitBytes: 64 * 1024 * 1024 },
        });
        expect((error as Error).message).toContain('tables.maxMemoryBytes');
        // The same value with room for it: the bound, not the query, stopped it.
        const fits = await store.queryTables('SELECT length(zeroblob(100000000))', ADMIN, {
          ...wide,
          maxMemoryBytes: 64 * 1024 * 1024,
        });
        expect(fits.rows).toEqual([[100_000_000]]);
        const roomy = await store.queryTables('SELECT zeroblob(100000000)', ADMIN, {
          ...wide,
          maxMemoryBytes: 1024 * 1024 * 1024,
        });
        expect((roomy.rows[0]?.[0] as Uint8Array).byteLength).toBe(100_000_000);
      } finally {
        await store.close();
      }
    },
  );
});

describe('SQLite table queries shared by many principals', () => {
  // A query that keeps SQLite busy until its time limit stops it: an unbounded recursive count.
  const slow = (table: string) =>
    `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c, ${table}`;
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it("serves one principal's query between another's slow ones, refuses a fifth waiting one, and counts the wait in the limit", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evident-table-fair-'));
    const { store, table } = await memoryStoreWithTable(join(dir, 'store.db'));
    const member: Principal = { id: 'mallory', groups: [], roles: ['member'] };
    try {
      const slowLimits = { maxRows: 5, timeoutMs: 400, maxQueuedPerUser: 4 };
      // Three slow queries of one member (each stopped at 400 ms) and a quick one of theirs with a 100 ms limit queue
      // up; a fifth is refused at once.
      // Each query's answer, in the order they come: the order, not the clock, shows who waited for whom, so a loaded
      // machine (a slow child restart after each stopped query) cannot change what the test sees.
      const settled: string[] = [];
      const noted = <T>(name: string, promise: Promise<T>) => {
        void promise.then(
          () => settled.push(name),
          () => settled.push(name),
        );
        return promise;
      };
      const queued = Array.from({ length: 3 }, (_, i) =>
        failureOf(noted(`slow ${i}`, store.queryTables(slow(table), member, slowLimits))),
      );
      const quick = failureOf(
        noted('quick', store.queryTables(`SELECT count(*) FROM ${table}`, member, { ...slowLimits, timeoutMs: 100 })),
      );
      expect(await failureOf(store.queryTables(slow(table), member, slowLimits))).toMatchObject({
        code: 'query_rejected',
      });
      // The admin's count runs after at most one of them, not after all four (its 30 s limit, which counts its wait,
      // holds on any load).
      expect(
        (
          await noted(
            'admin',
            store.queryTables(`SELECT count(*) FROM ${table}`, ADMIN, { maxRows: 5, timeoutMs: 30_000 }),
          )
        ).rows,
      ).toEqual([[3]]);
      for (const failure of await Promise.all(queued)) expect(failure).toMatchObject({ code: 'query_timeout' });
      await quick;
      expect(settled).toEqual(['slow 0', 'admin', 'slow 1', 'slow 2', 'quick']);
      // The quick one waited behind its owner's slow ones past its limit: stopped without running, the wait counted.
      expect(await quick).toMatchObject({ code: 'query_timeout' });
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
