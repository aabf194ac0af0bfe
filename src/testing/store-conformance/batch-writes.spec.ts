import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentWrite, Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import {
  ADMIN,
  badTable,
  documentWrite,
  EMBEDDER,
  expectRejects,
  ids,
  ordersTable,
  sorted,
  unitVector,
} from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** `putDocuments`: several versions in one transaction, stored exactly as one `putDocument` each would, or not at all. */
export function describeBatchWrites(suite: ConformanceSuite): void {
  describe('batch writes', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const next = random(7);
    const vectors = Array.from({ length: 8 }, () => unitVector(next));
    const v1 = documentWrite({
      docId: 'kept.md',
      contentHash: 'v1',
      chunks: [{ text: 'original harbour clause', vector: vectors[0] as Float32Array }],
    });
    const batch = (): DocumentWrite[] => [
      documentWrite({
        docId: 'kept.md',
        contentHash: 'v2',
        acl: ['group:legal'],
        tables: [ordersTable()],
        chunks: [
          { text: 'revised harbour clause', vector: vectors[1] as Float32Array },
          { text: 'revised pilotage clause', vector: vectors[2] as Float32Array },
        ],
      }),
      documentWrite({ docId: 'b.md', chunks: [{ text: 'tugboat schedule', vector: vectors[3] as Float32Array }] }),
      documentWrite({
        docId: 'c.md',
        acl: ['user:bob'],
        chunks: [{ text: 'crane manifest', vector: vectors[4] as Float32Array }],
      }),
    ];

    /** What a reader can see of the store: documents, chunks, both channels, tables and counts. */
    async function observe(): Promise<unknown> {
      const documents = (await store.listDocuments(ADMIN)).map(({ ingestedAt: _, ...doc }) => doc);
      const chunkIds = ['kept.md#0', 'kept.md#1', 'b.md#0', 'c.md#0'];
      return {
        documents,
        chunks: await store.getChunks(chunkIds, ADMIN),
        keyword: await Promise.all(
          ['harbour', 'clause', 'tugboat', 'crane', 'original'].map(async (term) =>
            sorted(ids(await store.keywordSearch([term], ADMIN, 10))),
          ),
        ),
        vector: await Promise.all(
          vectors.slice(0, 5).map(async (vector) => ids(await store.vectorSearch(vector, ADMIN, 1))),
        ),
        tables: (await store.listTables(ADMIN)).map((table) => [table.docId, table.title, table.rowCount]),
        stats: await store.stats(),
      };
    }

    it('stores a batch as one putDocument per write would, replacing previous versions', async () => {
      await store.putDocument(v1);
      for (const write of batch()) await store.putDocument(write);
      const oneByOne = await observe();
      for (const docId of ['kept.md', 'b.md', 'c.md']) await store.deleteDocument(docId);

      await store.putDocument(v1);
      await store.putDocuments(batch());
      expect(await observe()).toEqual(oneByOne);
      expect(await store.getDocument('kept.md')).toMatchObject({
        contentHash: 'v2',
        chunkCount: 2,
        acl: ['group:legal'],
      });
      expect(await store.keywordSearch(['original'], ADMIN, 10)).toEqual([]);
      await store.putDocuments([]);
      expect(await observe()).toEqual(oneByOne);
    });

    it('writes nothing of a batch when one of its writes fails, keeping previous versions', async () => {
      await store.putDocument(v1);
      const before = await observe();
      const failing = [batch(), batch(), batch()] as [DocumentWrite[], DocumentWrite[], DocumentWrite[]];
      (failing[0][2] as DocumentWrite).tables = [badTable()];
      (failing[1][1] as DocumentWrite).vectors[0] = new Float32Array(EMBEDDER.dimension + 1);
      (failing[2][2] as DocumentWrite).embedder = { id: 'another-embedder', dimension: EMBEDDER.dimension };
      for (const writes of failing) {
        await expectRejects(store.putDocuments(writes));
        expect(await observe()).toEqual(before);
      }
    });

    it('refuses a batch that names one doc_id twice', async () => {
      await store.putDocument(v1);
      const before = await observe();
      const [first] = batch();
      await expectRejects(store.putDocuments([first as DocumentWrite, v1]), 'invalid_input');
      expect(await observe()).toEqual(before);
    });
  });
}
