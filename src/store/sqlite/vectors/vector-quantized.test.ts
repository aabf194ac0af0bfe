import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../domain/index.ts';
import type { DocumentWrite } from '../../store.ts';
import { SqliteConnection } from '../connection.ts';
import { openSqliteStore } from '../store.ts';
import { VectorCache } from './vector-cache.ts';
import { cosine } from '../../../testing/store-conformance/fixtures.ts';

const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
const LEGAL: Principal = { id: 'lee', groups: ['legal'], roles: ['member'] };
const DIMENSION = 48;
const CHUNKS_PER_DOC = 20;
const root = mkdtempSync(join(tmpdir(), 'evident-vq-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296 - 0.5;
  };
}

const randomVector = (next: () => number): Float32Array => Float32Array.from({ length: DIMENSION }, () => next());

const write = (docId: string, vectors: Float32Array[], acl: string[]): DocumentWrite => ({
  document: { docId, source: docId, title: docId, type: 'text', contentHash: docId, bytes: 1, acl, tags: [] },
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
  embedder: { id: 'e', dimension: DIMENSION },
  chapters: [],
  tables: [],
});

/**
 * 2,000 chunks in 100 documents; every tenth document is readable by group:legal only. Enough rows that the int8
 * scan, not the exact fallback, picks the candidates for a top-10.
 */
async function buildStore(path: string) {
  const next = random(7);
  const vectors = new Map<string, { vector: Float32Array; restricted: boolean }>();
  const store = await openSqliteStore(path);
  for (let doc = 0; doc < 100; doc++) {
    const restricted = doc % 10 === 0;
    const docVectors = Array.from({ length: CHUNKS_PER_DOC }, () => randomVector(next));
    docVectors.forEach((vector, i) => vectors.set(`d${doc}.txt#${i}`, { vector, restricted }));
    await store.putDocument(write(`d${doc}.txt`, docVectors, restricted ? ['group:legal'] : []));
  }
  return { store, vectors, next };
}

/** Exact top-k by float64 cosine among the chunks `visible` admits, and the gap after the k-th. */
function exactTop(
  vectors: Map<string, { vector: Float32Array; restricted: boolean }>,
  query: Float32Array,
  k: number,
  visible: (restricted: boolean) => boolean,
) {
  const ranked = [...vectors]
    .filter(([, entry]) => visible(entry.restricted))
    .map(([id, entry]) => ({ id, score: cosine(query, entry.vector) }))
    .sort((a, b) => b.score - a.score);
  const gaps = ranked.slice(0, k).map((hit, i) => hit.score - (ranked[i + 1]?.score ?? -2));
  return { ids: ranked.slice(0, k).map((hit) => hit.id), minGap: Math.min(...gaps) };
}

describe('the quantized vector channel', () => {
  it('returns the exact top-k, best first with exact scores, where the margins are clear', async () => {
    const { store, vectors, next } = await buildStore(join(root, 'exact.db'));
    let checked = 0;
    for (let q = 0; q < 40; q++) {
      const query = randomVector(next);
      const exact = exactTop(vectors, query, 10, () => true);
      if (exact.minGap < 1e-4) continue;
      const hits = await store.vectorSearch(query, ADMIN, 10);
      expect(hits.map((hit) => hit.chunkId)).toEqual(exact.ids);
      hits.forEach((hit) =>
        expect(hit.score).toBeCloseTo(cosine(query, vectors.get(hit.chunkId)?.vector as Float32Array), 5),
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
    await store.close();
  });

  it('applies the principal filter before ranking: hidden chunks never appear nor displace the count', async () => {
    const { store, vectors, next } = await buildStore(join(root, 'filtered.db'));
    const restrictedIds = [...vectors].filter(([, entry]) => entry.restricted).map(([id]) => id);
    for (let q = 0; q < 10; q++) {
      // A query next to a restricted chunk: for an unrestricted reader, the nearest neighbours are hidden ones.
      const near = vectors.get(restrictedIds[(q * 37) % restrictedIds.length] as string)?.vector as Float32Array;
      const query = near.map((value) => value + next() * 0.05);
      const carol: Principal = { id: 'carol', groups: ['support'], roles: ['member'] };
      const visibleHits = await store.vectorSearch(query, carol, 10);
      expect(visibleHits).toHaveLength(10);
      expect(visibleHits.every((hit) => !(vectors.get(hit.chunkId)?.restricted ?? true))).toBe(true);
      const exactVisible = exactTop(vectors, query, 10, (restricted) => !restricted);
      if (exactVisible.minGap >= 1e-4) expect(visibleHits.map((hit) => hit.chunkId)).toEqual(exactVisible.ids);
      // The legal reader sees the restricted chunk it sits next to, first.
      const legalHits = await store.vectorSearch(query, LEGAL, 10);
      expect(legalHits[0]?.chunkId).toBe(restrictedIds[(q * 37) % restrictedIds.length]);
      const exactAll = exactTop(vectors, query, 10, () => true);
      if (exactAll.minGap >= 1e-4) expect(legalHits.map((hit) => hit.chunkId)).toEqual(exactAll.ids);
    }
    await store.close();
  });
});

describe('the vector snapshot file', () => {
  const embedder = { id: 'e', dimension: DIMENSION };
  /** Loads the index the way a query does, then writes the snapshot as the query's end does. */
  const loadAndSettle = (conn: SqliteConnection) => {
    const writer = new VectorCache(conn, { snapshotMinRows: 0 });
    writer.current(embedder);
    writer.settle();
    return writer;
  };

  it('is written after a load from vec0, read by the next connection, and ignored once stale or foreign', async () => {
    const path = join(root, 'snapshot.db');
    const { store, next } = await buildStore(path);
    const query = randomVector(next);
    const fromVec0 = await store.vectorSearch(query, LEGAL, 10);
    // Below the size where a snapshot pays for itself, the store's own cache writes none…
    expect(existsSync(join(root, '.snapshot.db.vectors'))).toBe(false);
    const conn = SqliteConnection.open(path);
    loadAndSettle(conn).clear();
    expect(existsSync(join(root, '.snapshot.db.vectors'))).toBe(true);

    const cache = new VectorCache(conn);
    const index = cache.current(embedder);
    expect(cache.snapshotLoads).toBe(1);
    expect(index.size).toBe(2000);
    expect(index.residentRows).toBe(0);
    // Same hits from the snapshot (int8 codes in memory, float rows read back from the file) as from vec0.
    const rows = cache.rowsVisibleTo(index, ['group:legal']);
    expect(rows).toBe('all');
    const fromSnapshot = index.search(query, 10);
    const ids = new Map(
      (conn.db.prepare('SELECT pk, id FROM chunks').all() as { pk: number; id: string }[]).map((row) => [
        row.pk,
        row.id,
      ]),
    );
    expect(fromSnapshot.map((hit) => ids.get(hit.chunkPk))).toEqual(fromVec0.map((hit) => hit.chunkId));
    fromSnapshot.forEach((hit, i) => expect(hit.score).toBeCloseTo(fromVec0[i]?.score as number, 6));
    // Once the background preload has copied the float rows into memory, rescoring reads them from there: same hits.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(index.search(query, 10)).toEqual(fromSnapshot);
    cache.clear();

    // Another connection's write moves the generation on: the file no longer counts.
    await store.putDocument(write('late.txt', [query], []));
    const stale = loadAndSettle(conn);
    expect(stale.snapshotLoads).toBe(0);
    expect(stale.current(embedder).size).toBe(2001);
    // …and the new snapshot it wrote holds the late chunk, read back exactly.
    const again = new VectorCache(conn);
    const reloaded = again.current(embedder);
    expect(again.snapshotLoads).toBe(1);
    expect(reloaded.search(query, 1)[0]?.score).toBeCloseTo(1, 5);
    again.clear();
    stale.clear();

    // A file from another store (same generation, other token) is never read as this store's.
    const other = await buildStore(join(root, 'other.db'));
    const otherConn = SqliteConnection.open(join(root, 'other.db'));
    loadAndSettle(otherConn).clear();
    otherConn.close();
    copyFileSync(join(root, '.other.db.vectors'), join(root, '.snapshot.db.vectors'));
    const foreign = new VectorCache(conn);
    expect(foreign.current(embedder).size).toBe(2001);
    expect(foreign.snapshotLoads).toBe(0);
    foreign.clear();

    // This process's own writes replay onto its index; flush (what closing does) rewrites the snapshot with them.
    const writer = loadAndSettle(conn);
    const before = writer.current(embedder);
    const opposite = query.map((value) => -value);
    await store.putDocument(write('later.txt', [opposite], []));
    const later = conn.db.prepare("SELECT pk, doc_pk FROM chunks WHERE id = 'later.txt#0'").get() as {
      pk: number;
      doc_pk: number;
    };
    writer.afterWrite(
      { removed: [], added: [{ chunkPk: later.pk, docPk: later.doc_pk, vector: opposite }] },
      store.generation() - 1,
      store.generation(),
    );
    expect(writer.current(embedder)).toBe(before);
    writer.flush();
    writer.clear();
    const reread = new VectorCache(conn);
    const rereadIndex = reread.current(embedder);
    expect(rereadIndex.size).toBe(2002);
    expect(reread.snapshotLoads).toBe(1);
    expect(rereadIndex.search(opposite, 1)[0]).toEqual({ chunkPk: later.pk, score: expect.closeTo(1, 5) });
    reread.clear();
    conn.close();
    await other.store.close();
    await store.close();
  });
});
