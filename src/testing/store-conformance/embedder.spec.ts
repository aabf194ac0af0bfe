import { beforeEach, describe, expect, it } from 'vitest';
import type { EmbedderInfo, Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ADMIN, CAROL, docOf, documentWrite, EMBEDDER, expectRejects, ids, sorted, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** The embedder binding, reindexing (chunkTexts, replaceVectors) and the embedding cache (the document port). */
export function describeEmbedder(suite: ConformanceSuite): void {
  describe('embedder binding', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('refuses vectors of another embedder and writes nothing', async () => {
      const next = random(9);
      await store.putDocument(documentWrite({ docId: 'a.md', chunks: [{ text: 'alpha', vector: unitVector(next) }] }));
      expect(await store.embedderInfo()).toEqual(EMBEDDER);
      const other: EmbedderInfo = { id: 'other-embedder', dimension: EMBEDDER.dimension };
      await expectRejects(
        store.putDocument(
          documentWrite({ docId: 'b.md', embedder: other, chunks: [{ text: 'beta', vector: unitVector(next) }] }),
        ),
        'embedder_mismatch',
      );
      const resized: EmbedderInfo = { id: EMBEDDER.id, dimension: 4 };
      await expectRejects(
        store.putDocument(
          documentWrite({ docId: 'a.md', embedder: resized, chunks: [{ text: 'gamma', vector: unitVector(next, 4) }] }),
        ),
        'embedder_mismatch',
      );
      expect(await store.getDocument('b.md')).toBeUndefined();
      expect(await store.keywordSearch(['beta'], ADMIN, 5)).toEqual([]);
      expect(await store.keywordSearch(['gamma'], ADMIN, 5)).toEqual([]);
      expect(ids(await store.keywordSearch(['alpha'], ADMIN, 5))).toEqual(['a.md#0']);
      expect(await store.embedderInfo()).toEqual(EMBEDDER);
    });

    it('replaces every vector and the binding at once', async () => {
      const next = random(10);
      for (const docId of ['a.md', 'b.md']) {
        await store.putDocument(
          documentWrite({
            docId,
            acl: docId === 'b.md' ? ['group:legal'] : [],
            chunks: [0, 1, 2].map((i) => ({ text: `${docId} part ${i}`, vector: unitVector(next) })),
          }),
        );
      }
      const chunkIds: string[] = [];
      for await (const batch of store.chunkTexts(2)) chunkIds.push(...batch.map((chunk) => chunk.id));
      expect(sorted(chunkIds)).toEqual(['a.md#0', 'a.md#1', 'a.md#2', 'b.md#0', 'b.md#1', 'b.md#2']);

      const reindexed: EmbedderInfo = { id: 'reindexed-embedder', dimension: 4 };
      const fresh = new Map(chunkIds.map((id) => [id, unitVector(next, 4)]));

      // Missing vectors: refused, the old binding and vectors stay.
      const partial = new Map(fresh);
      partial.delete('b.md#1');
      await expectRejects(store.replaceVectors(reindexed, partial));
      expect(await store.embedderInfo()).toEqual(EMBEDDER);
      expect(await store.vectorSearch(unitVector(next), ADMIN, 3)).toHaveLength(3);

      await store.replaceVectors(reindexed, fresh);
      expect(await store.embedderInfo()).toEqual(reindexed);
      const target = fresh.get('b.md#1') as Float32Array;
      expect((await store.vectorSearch(target, ADMIN, 1))[0]?.chunkId).toBe('b.md#1');
      expect((await store.vectorSearch(target, ADMIN, 1))[0]?.score).toBeCloseTo(1, 5);
      expect(docOf((await store.vectorSearch(target, CAROL, 1))[0]?.chunkId ?? '')).toBe('a.md');
      await expectRejects(store.vectorSearch(unitVector(next), ADMIN, 3));

      await expectRejects(
        store.putDocument(documentWrite({ docId: 'c.md', chunks: [{ text: 'c', vector: unitVector(next) }] })),
        'embedder_mismatch',
      );
      await store.putDocument(
        documentWrite({ docId: 'c.md', embedder: reindexed, chunks: [{ text: 'c', vector: unitVector(next, 4) }] }),
      );
      expect((await store.stats()).chunks).toBe(7);
    });
  });

  describe('embedding cache', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('returns cached vectors by embedder and content hash', async () => {
      const next = random(13);
      const h1 = unitVector(next);
      const h2 = unitVector(next);
      await store.cacheEmbeddings(
        'e1',
        new Map([
          ['h1', h1],
          ['h2', h2],
        ]),
      );
      const found = await store.cachedEmbeddings('e1', ['h1', 'h3']);
      expect([...found.keys()]).toEqual(['h1']);
      expect(Array.from(found.get('h1') ?? [])).toEqual(Array.from(h1));
      expect((await store.cachedEmbeddings('e2', ['h1', 'h2'])).size).toBe(0);
      expect((await store.cachedEmbeddings('e1', [])).size).toBe(0);
      const replacement = unitVector(next);
      await store.cacheEmbeddings('e1', new Map([['h1', replacement]]));
      expect(Array.from((await store.cachedEmbeddings('e1', ['h1'])).get('h1') ?? [])).toEqual(Array.from(replacement));
    });
  });

  describe('chunkTexts and stats', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('yields every chunk once, in batches no larger than asked', async () => {
      const next = random(14);
      await store.putDocument(
        documentWrite({
          docId: 'five.md',
          chunks: [0, 1, 2, 3, 4].map((i) => ({ text: `five ${i}`, vector: unitVector(next) })),
        }),
      );
      await store.putDocument(
        documentWrite({
          docId: 'two.md',
          acl: ['user:x'],
          chunks: [0, 1].map((i) => ({ text: `two ${i}`, vector: unitVector(next) })),
        }),
      );
      const seen: string[] = [];
      for await (const batch of store.chunkTexts(3)) {
        expect(batch.length).toBeGreaterThan(0);
        expect(batch.length).toBeLessThanOrEqual(3);
        for (const chunk of batch) {
          expect(chunk.text).toBe(`${docOf(chunk.id).replace('.md', '')} ${chunk.ordinal}`);
          expect(chunk.title).toBe(`Title of ${chunk.docId}`);
          seen.push(chunk.id);
        }
      }
      expect(sorted(seen)).toEqual(sorted([0, 1, 2, 3, 4].map((i) => `five.md#${i}`).concat(['two.md#0', 'two.md#1'])));
      expect(await store.stats()).toEqual({ documents: 2, chunks: 7, tables: 0, users: 0, embedder: EMBEDDER });
    });
  });
}
