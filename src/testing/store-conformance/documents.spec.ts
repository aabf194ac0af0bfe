import { beforeEach, describe, expect, it } from 'vitest';
import type { Chapter } from '../../domain/index.ts';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import {
  ADMIN,
  badTable,
  CAROL,
  documentWrite,
  EMBEDDER,
  expectRejects,
  ids,
  ordersTable,
  sorted,
  unitVector,
} from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Documents: put, get, list, delete and replace versions, and writes that are whole or absent (the document port). */
export function describeDocuments(suite: ConformanceSuite): void {
  describe('documents', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('starts empty', async () => {
      expect(await store.listDocuments(ADMIN)).toEqual([]);
      expect(await store.getDocument('nothing.md')).toBeUndefined();
      expect(await store.embedderInfo()).toBeUndefined();
      expect(await store.vectorSearch(new Float32Array(EMBEDDER.dimension), ADMIN, 5)).toEqual([]);
      expect(await store.keywordSearch(['anything'], ADMIN, 5)).toEqual([]);
      expect(await store.stats()).toEqual({ documents: 0, chunks: 0, tables: 0, users: 0, embedder: undefined });
    });

    it('puts, gets, lists and deletes documents', async () => {
      const next = random(1);
      const write = documentWrite({
        docId: 'docs/guide.md',
        acl: ['group:legal', 'user:bob'],
        tags: ['guide', 'howto'],
        pageCount: 3,
        chunks: [
          { text: 'Install the engine', vector: unitVector(next) },
          { text: 'Configure the engine', vector: unitVector(next) },
        ],
      });
      await store.putDocument(write);
      await store.putDocument(documentWrite({ docId: 'a.md', chunks: [{ text: 'first', vector: unitVector(next) }] }));

      const record = await store.getDocument('docs/guide.md');
      expect(record).toMatchObject({
        ...write.document,
        acl: ['group:legal', 'user:bob'],
        chunkCount: 2,
      });
      expect(Number.isNaN(Date.parse(record?.ingestedAt ?? ''))).toBe(false);
      expect((await store.listDocuments(ADMIN)).map((doc) => doc.docId)).toEqual(['a.md', 'docs/guide.md']);

      const chunks = await store.getChunks(['docs/guide.md#1', 'docs/guide.md#0'], ADMIN);
      expect(chunks).toEqual([
        { ...write.chunks[1], source: '/corpus/docs/guide.md', title: 'Title of docs/guide.md' },
        { ...write.chunks[0], source: '/corpus/docs/guide.md', title: 'Title of docs/guide.md' },
      ]);

      expect(await store.deleteDocument('docs/guide.md')).toBe(true);
      expect(await store.deleteDocument('docs/guide.md')).toBe(false);
      expect(await store.getDocument('docs/guide.md')).toBeUndefined();
      expect(await store.getChunks(['docs/guide.md#0'], ADMIN)).toEqual([]);
      expect(await store.keywordSearch(['configure'], ADMIN, 10)).toEqual([]);
      expect(ids(await store.vectorSearch(write.vectors[0] as Float32Array, ADMIN, 10))).toEqual(['a.md#0']);
      expect(await store.listChapters('docs/guide.md', ADMIN)).toEqual([]);
      expect((await store.listDocuments(ADMIN)).map((doc) => doc.docId)).toEqual(['a.md']);
    });

    it('lists chapters in order', async () => {
      const chapters: Chapter[] = [
        { ordinal: 0, title: 'Intro', headingPath: ['Intro'], startOffset: 0, endOffset: 10, page: 1 },
        { ordinal: 1, title: 'Usage', headingPath: ['Usage'], startOffset: 10, endOffset: 20 },
      ];
      await store.putDocument(
        documentWrite({ docId: 'c.md', chapters, chunks: [{ text: 'intro usage', vector: unitVector(random(2)) }] }),
      );
      expect(await store.listChapters('c.md', ADMIN)).toEqual(chapters);
      expect(await store.listChapters('missing.md', ADMIN)).toEqual([]);
    });

    it('replaces a document version completely', async () => {
      const next = random(3);
      const v1 = documentWrite({
        docId: 'policy.md',
        contentHash: 'v1',
        chunks: [
          { text: 'old alpha clause', vector: unitVector(next) },
          { text: 'old beta clause', vector: unitVector(next) },
          { text: 'old gamma clause', vector: unitVector(next) },
        ],
        tables: [ordersTable('old orders')],
      });
      await store.putDocument(v1);
      const v2 = documentWrite({
        docId: 'policy.md',
        contentHash: 'v2',
        acl: ['group:legal'],
        chunks: [
          { text: 'new delta clause', vector: unitVector(next) },
          { text: 'new epsilon clause', vector: unitVector(next) },
        ],
        chapters: [{ ordinal: 0, title: 'New chapter', headingPath: ['New'], startOffset: 0, endOffset: 5 }],
      });
      await store.putDocument(v2);

      expect(await store.getDocument('policy.md')).toMatchObject({
        contentHash: 'v2',
        chunkCount: 2,
        acl: ['group:legal'],
      });
      expect((await store.getChunks(['policy.md#0', 'policy.md#1', 'policy.md#2'], ADMIN)).map((c) => c.id)).toEqual([
        'policy.md#0',
        'policy.md#1',
      ]);
      expect((await store.getChunks(['policy.md#0'], ADMIN))[0]?.text).toBe('new delta clause');
      expect(await store.keywordSearch(['alpha'], ADMIN, 10)).toEqual([]);
      expect(ids(await store.keywordSearch(['epsilon'], ADMIN, 10))).toEqual(['policy.md#1']);
      const nearOld = await store.vectorSearch(v1.vectors[2] as Float32Array, ADMIN, 10);
      expect(sorted(ids(nearOld))).toEqual(['policy.md#0', 'policy.md#1']);
      expect((await store.listChapters('policy.md', ADMIN)).map((chapter) => chapter.title)).toEqual(['New chapter']);
      expect(await store.listTables(ADMIN)).toEqual([]);
      // The new ACL applies: a principal outside it no longer sees the document.
      expect(await store.listDocuments(CAROL)).toEqual([]);
      expect(await store.keywordSearch(['clause'], CAROL, 10)).toEqual([]);
      expect((await store.stats()).chunks).toBe(2);
    });
  });

  describe('atomic writes', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const next = random(4);
    const v1 = documentWrite({
      docId: 'contract.md',
      contentHash: 'v1',
      chunks: [
        { text: 'original indemnity clause', vector: unitVector(next) },
        { text: 'original termination clause', vector: unitVector(next) },
      ],
      tables: [ordersTable()],
    });
    const v2Base = {
      docId: 'contract.md',
      contentHash: 'v2',
      acl: ['group:legal'],
      chunks: [
        { text: 'replacement warranty clause', vector: unitVector(next) },
        { text: 'replacement liability clause', vector: unitVector(next) },
        { text: 'replacement venue clause', vector: unitVector(next) },
      ],
    };

    async function expectV1Intact(): Promise<void> {
      const before = await store.getDocument('contract.md');
      expect(before).toMatchObject({ contentHash: 'v1', chunkCount: 2, acl: [] });
      const chunks = await store.getChunks(['contract.md#0', 'contract.md#1', 'contract.md#2'], CAROL);
      expect(chunks.map((chunk) => chunk.text)).toEqual(['original indemnity clause', 'original termination clause']);
      expect(ids(await store.keywordSearch(['indemnity'], CAROL, 10))).toEqual(['contract.md#0']);
      expect(await store.keywordSearch(['warranty'], ADMIN, 10)).toEqual([]);
      expect(ids(await store.vectorSearch(v1.vectors[1] as Float32Array, CAROL, 1))).toEqual(['contract.md#1']);
      expect(sorted(ids(await store.vectorSearch(v1.vectors[1] as Float32Array, ADMIN, 10)))).toEqual([
        'contract.md#0',
        'contract.md#1',
      ]);
      expect((await store.listChapters('contract.md', CAROL)).map((chapter) => chapter.title)).toEqual([
        'Chapter of contract.md',
      ]);
      expect((await store.listTables(CAROL)).map((table) => [table.title, table.rowCount])).toEqual([['orders', 3]]);
      expect((await store.listDocuments(CAROL)).map((doc) => doc.docId)).toEqual(['contract.md']);
      expect(await store.stats()).toMatchObject({ documents: 1, chunks: 2, tables: 1 });
    }

    it('keeps the previous version when a table row does not fit its column types', async () => {
      await store.putDocument(v1);
      await expectRejects(store.putDocument(documentWrite({ ...v2Base, tables: [ordersTable('fine'), badTable()] })));
      await expectV1Intact();
    });

    it('keeps the previous version when a vector has the wrong length', async () => {
      await store.putDocument(v1);
      const write = documentWrite(v2Base);
      write.vectors[2] = new Float32Array(EMBEDDER.dimension + 1);
      await expectRejects(store.putDocument(write));
      await expectV1Intact();
    });

    it('keeps the previous version when keyword texts do not match the chunks', async () => {
      await store.putDocument(v1);
      const write = documentWrite(v2Base);
      write.keywordText.pop();
      await expectRejects(store.putDocument(write));
      await expectV1Intact();
    });

    it('leaves no trace of a new document whose write fails', async () => {
      await store.putDocument(v1);
      await expectRejects(store.putDocument(documentWrite({ ...v2Base, docId: 'other.md', tables: [badTable()] })));
      expect(await store.getDocument('other.md')).toBeUndefined();
      expect(await store.keywordSearch(['warranty'], ADMIN, 10)).toEqual([]);
      await expectV1Intact();
    });
  });
}
