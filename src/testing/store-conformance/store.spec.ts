import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ALICE, CAROL, documentWrite, EMBEDDER, ids, ordersTable, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** The store as a whole: everything survives close and reopen. */
export function describePersistence(suite: ConformanceSuite): void {
  describe('persistence', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('keeps everything across close and reopen', async () => {
      const next = random(15);
      const legal = documentWrite({
        docId: 'legal.md',
        acl: ['group:legal'],
        chunks: [
          { text: 'persistent indemnity clause', vector: unitVector(next) },
          { text: 'persistent venue clause', vector: unitVector(next) },
        ],
        tables: [ordersTable()],
      });
      await store.putDocument(legal);
      await store.putDocument(
        documentWrite({ docId: 'public.md', chunks: [{ text: 'public note', vector: unitVector(next) }] }),
      );
      const user = await store.upsertUser({ name: 'alice', groups: ['legal'] });
      const cached = unitVector(next);
      await store.cacheEmbeddings(EMBEDDER.id, new Map([['hash', cached]]));
      const before = await store.getDocument('legal.md');

      store = await suite.reopen();

      expect(await store.getDocument('legal.md')).toEqual(before);
      expect((await store.listDocuments(ALICE)).map((doc) => doc.docId)).toEqual(['legal.md', 'public.md']);
      expect((await store.listDocuments(CAROL)).map((doc) => doc.docId)).toEqual(['public.md']);
      expect(ids(await store.keywordSearch(['indemnity'], ALICE, 5))).toEqual(['legal.md#0']);
      expect(await store.keywordSearch(['indemnity'], CAROL, 5)).toEqual([]);
      expect(ids(await store.vectorSearch(legal.vectors[1] as Float32Array, ALICE, 1))).toEqual(['legal.md#1']);
      expect(ids(await store.vectorSearch(legal.vectors[1] as Float32Array, CAROL, 5))).toEqual(['public.md#0']);
      expect((await store.listTables(ALICE)).map((table) => table.title)).toEqual(['orders']);
      expect(await store.getUser('alice')).toEqual(user);
      expect(Array.from((await store.cachedEmbeddings(EMBEDDER.id, ['hash'])).get('hash') ?? [])).toEqual(
        Array.from(cached),
      );
      expect(await store.stats()).toEqual({ documents: 2, chunks: 3, tables: 1, users: 1, embedder: EMBEDDER });
    });
  });
}
