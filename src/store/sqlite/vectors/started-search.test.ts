import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../domain/index.ts';
import type { DocumentWrite } from '../../store.ts';
import { SqliteConnection } from '../connection.ts';
import { vectorSearch } from '../search.ts';
import { openSqliteStore } from '../store.ts';
import { createWasmDotKernel, type DotKernel } from './dot-kernel.ts';
import type { VectorCache } from './vector-cache.ts';
import { VectorIndex, type VectorHit } from './vector-index.ts';
import { createThreadedDotKernel } from './vector-scan-threads.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-started-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296 - 0.5;
  };
}

/** Enough rows that the threaded kernel splits the int8 scan over its helpers (it scans alone below 32,768). */
const ROWS = 40_000;
const DIMS = 24;
const vectorOf = (next: () => number) => Float32Array.from({ length: DIMS }, () => next());

/** Two indexes over the same rows: one scanning on helper threads, one on a single-thread kernel (the reference). */
function twins(seed: number) {
  const threadedKernel = createThreadedDotKernel(1);
  const singleKernel = createWasmDotKernel();
  if (!threadedKernel || !singleKernel) throw new Error('WebAssembly SIMD with shared memory is expected here');
  const threaded = new VectorIndex(threadedKernel, DIMS);
  const single = new VectorIndex(singleKernel, DIMS);
  const next = random(seed);
  for (let pk = 1; pk <= ROWS; pk++) {
    const vector = vectorOf(next);
    threaded.upsert(pk, pk % 13, vector);
    single.upsert(pk, pk % 13, vector);
  }
  const both = (change: (index: VectorIndex) => void) => {
    change(threaded);
    change(single);
  };
  return { threaded, single, next, both };
}

/** Busy work on this thread while the helpers scan (the keyword channel's place in a hybrid search). */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a started int8 scan', () => {
  it('returns at once and leaves the scores a synchronous scan gives, joined by the next call of any kind', () => {
    const threaded = createThreadedDotKernel(1) as DotKernel & { close(): void };
    const single = createWasmDotKernel() as DotKernel;
    const n = ROWS;
    const stride = 32;
    const next = random(5);
    const codes = Int8Array.from({ length: n * stride }, () => Math.round(next() * 254));
    const scales = Float32Array.from({ length: n }, () => 0.5 + next());
    const query = Int16Array.from({ length: stride }, () => Math.round(next() * 4000));
    const rows = Int32Array.from({ length: n }, (_, i) => (i * 7919) % n);
    const [q, m] = [0, 64];
    const sc = m + n * stride;
    const outAll = sc + n * 4;
    const outListed = outAll + n * 4;
    const idx = outListed + n * 4;
    const fill = (kernel: DotKernel) => {
      kernel.reserve(idx + n * 4);
      new Int16Array(kernel.buffer(), q, stride).set(query);
      new Int8Array(kernel.buffer(), m, n * stride).set(codes);
      new Float32Array(kernel.buffer(), sc, n).set(scales);
      new Int32Array(kernel.buffer(), idx, n).set(rows);
    };
    fill(single);
    single.dotsI8(q, m, n, stride, sc, outAll);
    single.dotsI8At(q, m, idx, n, stride, sc, outListed);
    const expected = new Float32Array(single.buffer(), outAll, 2 * n).slice();

    fill(threaded);
    for (let run = 0; run < 3; run++) {
      new Float32Array(threaded.buffer(), outAll, 2 * n).fill(Number.NaN);
      expect(threaded.startDotsI8?.(q, m, n, stride, sc, outAll)).toBe(true);
      spin(run);
      // A second start joins the first before it posts its own scan.
      expect(threaded.startDotsI8At?.(q, m, idx, n, stride, sc, outListed)).toBe(true);
      spin(run);
      // buffer() joins the second.
      expect(new Float32Array(threaded.buffer(), outAll, 2 * n)).toEqual(expected);
    }
    // join() alone finishes a scan, and a scan too short to split runs at once.
    threaded.startDotsI8?.(q, m, n, stride, sc, outAll);
    threaded.join?.();
    expect(threaded.startDotsI8?.(q, m, 1000, stride, sc, outListed)).toBe(false);
    expect(new Float32Array(threaded.buffer(), outAll, n)).toEqual(expected.subarray(0, n));
    threaded.close();
  });
});

describe('VectorIndex.startSearch', () => {
  const strip = (hits: VectorHit[]) => hits.map((hit) => [hit.chunkPk, hit.score]);

  it('answers as search() does, over all rows and over a row list', () => {
    const { threaded, single, next } = twins(11);
    // All documents but one: a list still long enough to be split over the helpers.
    const visible = (doc: number) => doc !== 3;
    for (let i = 0; i < 5; i++) {
      const query = vectorOf(next);
      const started = threaded.startSearch(query, 25);
      expect(started.running).toBe(true);
      spin(1);
      expect(strip(started.hits())).toEqual(strip(single.search(query, 25)));
      // Asking twice gives the same hits.
      expect(strip(started.hits())).toEqual(strip(single.search(query, 25)));
      const listed = threaded.startSearch(query, 25, threaded.rowsWhere(visible));
      expect(listed.running).toBe(true);
      expect(strip(listed.hits())).toEqual(strip(single.search(query, 25, single.rowsWhere(visible))));
    }
    threaded.close();
  });

  it('gives the hits of the rows as they were when it began, whatever changes or starts before its end', () => {
    const { threaded, single, next, both } = twins(12);
    const query = vectorOf(next);
    const before = single.search(query, 10);
    const started = threaded.startSearch(query, 10);
    // The best row removed, and a row equal to the query (the best of all) added, before the search ends.
    both((index) => index.remove(before[0]?.chunkPk as number));
    both((index) => index.upsert(ROWS + 1, 1, query));
    expect(strip(started.hits())).toEqual(strip(before));
    // A search begun after the change sees it.
    const after = threaded.search(query, 10);
    expect(after[0]?.chunkPk).toBe(ROWS + 1);
    expect(strip(after)).toEqual(strip(single.search(query, 10)));

    // A second search begun before the first ends: both answer their own query.
    const other = vectorOf(next);
    const first = threaded.startSearch(query, 10);
    const second = threaded.startSearch(other, 10);
    expect(strip(second.hits())).toEqual(strip(single.search(other, 10)));
    expect(strip(first.hits())).toEqual(strip(single.search(query, 10)));

    // A cancelled search leaves the index to the next one.
    threaded.startSearch(other, 10).cancel();
    expect(strip(threaded.search(query, 10))).toEqual(strip(single.search(query, 10)));
    threaded.close();
  });
});

describe('the SQLite vector channel with a started scan', () => {
  const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
  const embedder = { id: 'e', dimension: DIMS };
  const write = (docId: string, vectors: Float32Array[]): DocumentWrite => ({
    document: { docId, source: docId, title: docId, type: 'text', contentHash: docId, bytes: 1, acl: [], tags: [] },
    chunks: vectors.map((_, ordinal) => ({
      id: `${docId}#${ordinal}`,
      docId,
      ordinal,
      text: `${docId} ${ordinal}`,
      headingPath: [],
      startOffset: 0,
      endOffset: 1,
    })),
    keywordText: vectors.map(() => 'chunk'),
    vectors,
    embedder,
    chapters: [],
    tables: [],
  });

  it('searches again in the new snapshot when a write commits while the helpers scan', async () => {
    const path = join(root, 'started.db');
    const store = await openSqliteStore(path);
    const next = random(21);
    const query = vectorOf(next);
    // Three chunks; the first is the query itself.
    await store.putDocument(write('a.txt', [query, vectorOf(next), vectorOf(next)]));
    const conn = SqliteConnection.open(path);
    const pks = (conn.db.prepare('SELECT pk, id FROM chunks ORDER BY pk').all() as { pk: number; id: string }[]).map(
      (row) => row.pk,
    );
    // An index of the store's three rows among enough others (pks no chunk has) that the scan runs on the helpers;
    // a cache that counts how often the search asks for it.
    const index = new VectorIndex(createThreadedDotKernel(1) as DotKernel, DIMS);
    const rows = await store.getChunks(['a.txt#0', 'a.txt#1', 'a.txt#2'], ADMIN);
    expect(rows).toHaveLength(3);
    for (let pk = 1_000_000; pk < 1_000_000 + ROWS; pk++) index.upsert(pk, 1, vectorOf(next));
    index.upsert(pks[0] as number, 1, query);
    let asked = 0;
    const cache = {
      current: () => {
        asked++;
        return index;
      },
      rowsVisibleTo: () => 'all' as const,
      settle: () => undefined,
    } as unknown as VectorCache;

    // Undisturbed: the chunk equal to the query comes first; the index is asked for once.
    const quiet = await vectorSearch(conn, cache, query, ADMIN, 5);
    expect(quiet[0]?.chunkId).toBe('a.txt#0');
    expect(asked).toBe(1);

    // Another connection commits a write between the scan's start and its end (the chunks are gone, the generation
    // moves): the search is made again in the new snapshot, and no id of the old one is returned.
    const other = SqliteConnection.open(path);
    const pending = vectorSearch(conn, cache, query, ADMIN, 5);
    other.db.transaction(() => {
      other.db.prepare('DELETE FROM chunks').run();
      other.db.prepare("UPDATE store_meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'").run();
    })();
    other.close();
    const disturbed = await pending;
    expect(asked).toBe(3);
    expect(disturbed.map((hit) => hit.chunkId)).toEqual([]);
    index.close();
    conn.close();
    await store.close();
  });
});
