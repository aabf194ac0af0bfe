import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import {
  ADMIN,
  ALICE,
  BOB,
  CAROL,
  docOf,
  documentWrite,
  expectRanked,
  ids,
  ordersTable,
  sorted,
  unitVector,
  VISIBILITY_CASES,
} from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** The principal filter of every document read, applied inside the query before ranking and limits (the document port). */
export function describeDocumentAccess(suite: ConformanceSuite): void {
  describe('principal filter', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const next = random(5);
    const docs = {
      public: documentWrite({
        docId: 'public.md',
        chunks: [{ text: 'quarterly report public summary', vector: unitVector(next) }],
        tables: [ordersTable('public orders')],
      }),
      legal: documentWrite({
        docId: 'legal.md',
        acl: ['group:legal'],
        chunks: [{ text: 'quarterly report legal memo', vector: unitVector(next) }],
        tables: [ordersTable('legal orders')],
      }),
      bob: documentWrite({
        docId: 'bob.md',
        acl: ['user:bob'],
        chunks: [{ text: 'quarterly report bob notes', vector: unitVector(next) }],
        tables: [ordersTable('bob orders')],
      }),
      secret: documentWrite({
        docId: 'secret.md',
        acl: ['group:board', 'user:dave'],
        chunks: [{ text: 'quarterly report secretword merger', vector: unitVector(next) }],
        tables: [ordersTable('secret orders')],
      }),
    };
    const cases = VISIBILITY_CASES;

    beforeEach(async () => {
      for (const write of Object.values(docs)) await store.putDocument(write);
    });

    it.each(cases)('listDocuments: %s', async (_, principal, visible) => {
      expect((await store.listDocuments(principal)).map((doc) => doc.docId)).toEqual(visible);
    });

    it.each(cases)('keywordSearch: %s', async (_, principal, visible) => {
      const hits = await store.keywordSearch(['quarterly', 'report'], principal, 10);
      expect(sorted(hits.map((hit) => docOf(hit.chunkId)))).toEqual(visible);
      expectRanked(hits);
    });

    it.each(cases)('vectorSearch: %s', async (_, principal, visible) => {
      // Query with the secret document's own vector: the most similar chunk of all, unless filtered.
      const hits = await store.vectorSearch(docs.secret.vectors[0] as Float32Array, principal, 10);
      expect(sorted(hits.map((hit) => docOf(hit.chunkId)))).toEqual(visible);
      expectRanked(hits);
    });

    it.each(cases)('getChunks: %s', async (_, principal, visible) => {
      const all = ['public.md#0', 'legal.md#0', 'bob.md#0', 'secret.md#0'];
      expect(sorted((await store.getChunks(all, principal)).map((chunk) => chunk.docId))).toEqual(visible);
    });

    it.each(cases)('listChapters: %s', async (_, principal, visible) => {
      for (const docId of ['public.md', 'legal.md', 'bob.md', 'secret.md']) {
        const chapters = await store.listChapters(docId, principal);
        expect(chapters.length, docId).toBe(visible.includes(docId) ? 1 : 0);
      }
    });

    it.each(cases)('listTables: %s', async (_, principal, visible) => {
      expect(sorted((await store.listTables(principal)).map((table) => table.docId))).toEqual(visible);
    });

    it('hides unauthorised chunks even when they are the only match', async () => {
      expect(await store.keywordSearch(['secretword'], CAROL, 10)).toEqual([]);
      expect(await store.keywordSearch(['merger*'], ALICE, 10)).toEqual([]);
      expect(ids(await store.keywordSearch(['secretword'], ADMIN, 10))).toEqual(['secret.md#0']);
      expect(await store.listChapters('secret.md', BOB)).toEqual([]);
    });

    it('applies the filter before the limit', async () => {
      // If the filter ran after taking the top 1, Carol would get nothing here.
      expect(ids(await store.vectorSearch(docs.secret.vectors[0] as Float32Array, CAROL, 1))).toEqual(['public.md#0']);
      const legalFirst = await store.keywordSearch(['legal', 'quarterly'], CAROL, 1);
      expect(ids(legalFirst)).toEqual(['public.md#0']);
    });
  });
}
