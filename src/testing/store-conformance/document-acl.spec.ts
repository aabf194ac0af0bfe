import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ADMIN, ALICE, BOB, documentWrite, expectRejects, ids, sorted, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Replacing a stored version's ACL in place (a sync's ACL-only change): the version's chunks and vectors stay. */
export function describeDocumentAcl(suite: ConformanceSuite): void {
  describe('document ACL updates', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('replaces the ACL of the matching version, keeps its chunks and vectors, and every read follows at once', async () => {
      const next = random(7);
      const vector = unitVector(next);
      await store.putDocument(
        documentWrite({ docId: 'memo.md', acl: ['group:legal'], chunks: [{ text: 'orchid budget memo', vector }] }),
      );
      const before = await store.getDocument('memo.md');
      expect(ids(await store.keywordSearch(['orchid'], BOB, 5))).toEqual([]);
      expect(ids(await store.vectorSearch(vector, BOB, 5))).toEqual([]);

      expect(await store.updateDocumentAcl('memo.md', 'hash-memo.md', ['user:bob'])).toBe(true);
      const after = await store.getDocument('memo.md');
      expect(after?.acl).toEqual(['user:bob']);
      expect({ ...after, acl: before?.acl }).toEqual(before); // same version: hash, chunk count, ingested_at
      expect(ids(await store.keywordSearch(['orchid'], BOB, 5))).toEqual(['memo.md#0']);
      expect(ids(await store.vectorSearch(vector, BOB, 5))).toEqual(['memo.md#0']);
      expect(ids(await store.keywordSearch(['orchid'], ALICE, 5))).toEqual([]);
      expect(ids(await store.vectorSearch(vector, ALICE, 5))).toEqual([]);
      expect((await store.getChunks(['memo.md#0'], ALICE)).length).toBe(0);
      expect((await store.getChunks(['memo.md#0'], BOB)).map((chunk) => chunk.text)).toEqual(['orchid budget memo']);

      // Public, spelled out as [], and back to restricted.
      expect(await store.updateDocumentAcl('memo.md', 'hash-memo.md', [])).toBe(true);
      expect(sorted((await store.listDocuments(ALICE)).map((doc) => doc.docId))).toEqual(['memo.md']);
      expect(
        await store.updateDocumentAcl('memo.md', 'hash-memo.md', ['group:legal', 'group:legal', 'user:carol']),
      ).toBe(true);
      expect(sorted((await store.getDocument('memo.md'))?.acl ?? [])).toEqual(['group:legal', 'user:carol']);
      expect((await store.listDocuments(BOB)).length).toBe(0);
      expect((await store.listDocuments(ADMIN)).length).toBe(1);
    });

    it('writes nothing when the version is another or the document is gone, and refuses a malformed ACL', async () => {
      const next = random(8);
      await store.putDocument(
        documentWrite({
          docId: 'memo.md',
          acl: ['group:legal'],
          chunks: [{ text: 'orchid', vector: unitVector(next) }],
        }),
      );
      expect(await store.updateDocumentAcl('memo.md', 'another-hash', [])).toBe(false);
      expect(await store.updateDocumentAcl('gone.md', 'hash-gone.md', [])).toBe(false);
      expect((await store.getDocument('memo.md'))?.acl).toEqual(['group:legal']);
      await expectRejects(store.updateDocumentAcl('memo.md', 'hash-memo.md', ['']), 'invalid_input');
      await expectRejects(
        store.updateDocumentAcl('memo.md', 'hash-memo.md', [42 as unknown as string]),
        'invalid_input',
      );
      expect((await store.getDocument('memo.md'))?.acl).toEqual(['group:legal']);
    });
  });
}
