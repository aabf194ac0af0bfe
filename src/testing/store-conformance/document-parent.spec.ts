import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentWrite, Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ADMIN, ALICE, BOB, documentWrite, expectRejects, ids, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/**
 * Documents found inside another (an e-mail's attachments, `document.parent`) and a document's `metadata`: children
 * are written after their parent in its transaction, with its ACL, and are replaced, re-permissioned and deleted with it.
 */
export function describeDocumentParent(suite: ConformanceSuite): void {
  describe('documents found inside another', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    const next = random(11);
    const vector = () => unitVector(next);
    const message = (acl: string[], hash = 'm1'): DocumentWrite => {
      const write = documentWrite({
        docId: 'mail.eml',
        contentHash: hash,
        acl,
        chunks: [{ text: 'message body', vector: vector() }],
      });
      return { ...write, document: { ...write.document, metadata: { from: 'alice@x.org', thread: 'root@x.org' } } };
    };
    const attachment = (name: string, text: string, acl: string[]): DocumentWrite => {
      const write = documentWrite({ docId: `mail.eml/${name}`, acl, chunks: [{ text, vector: vector() }] });
      return { ...write, document: { ...write.document, parent: 'mail.eml' } };
    };
    const stored = async () => (await store.listDocuments(ADMIN)).map((doc) => doc.docId);

    it('keeps metadata and the parent, and lets only the message readers find an attachment', async () => {
      await store.putDocuments([message(['group:legal']), attachment('a.pdf', 'walrus invoice', ['group:legal'])]);
      expect(await store.getDocument('mail.eml')).toMatchObject({
        metadata: { from: 'alice@x.org', thread: 'root@x.org' },
      });
      expect((await store.getDocument('mail.eml'))?.parent).toBeUndefined();
      expect(await store.getDocument('mail.eml/a.pdf')).toMatchObject({ parent: 'mail.eml', acl: ['group:legal'] });
      expect(ids(await store.keywordSearch(['walrus'], ALICE, 5))).toEqual(['mail.eml/a.pdf#0']);
      expect(await store.keywordSearch(['walrus'], BOB, 5)).toEqual([]);
    });

    it('removes the attachments of the previous version when the message is written again', async () => {
      await store.putDocuments([message([]), attachment('a.pdf', 'walrus invoice', [])]);
      await store.putDocuments([message([], 'm2'), attachment('b.txt', 'narwhal note', [])]);
      expect(await stored()).toEqual(['mail.eml', 'mail.eml/b.txt']);
      expect(await store.keywordSearch(['walrus'], ADMIN, 5)).toEqual([]);
      await store.putDocument(message([], 'm3'));
      expect(await stored()).toEqual(['mail.eml']);
    });

    it('deletes the attachments with the message', async () => {
      await store.putDocuments([
        message([]),
        attachment('a.pdf', 'walrus invoice', []),
        attachment('b.txt', 'narwhal', []),
      ]);
      expect(await store.deleteDocument('mail.eml')).toBe(true);
      expect(await stored()).toEqual([]);
      expect(await store.keywordSearch(['narwhal'], ADMIN, 5)).toEqual([]);
    });

    it("gives the message's new ACL to its attachments", async () => {
      await store.putDocuments([message([]), attachment('a.pdf', 'walrus invoice', [])]);
      expect(await store.updateDocumentAcl('mail.eml', 'm1', ['user:alice'])).toBe(true);
      expect((await store.getDocument('mail.eml/a.pdf'))?.acl).toEqual(['user:alice']);
      expect(await store.keywordSearch(['walrus'], BOB, 5)).toEqual([]);
      expect(ids(await store.keywordSearch(['walrus'], ALICE, 5))).toEqual(['mail.eml/a.pdf#0']);
    });

    it('lists the documents whose metadata holds given values, for the principal only', async () => {
      const mail = (docId: string, thread: string, acl: string[]): DocumentWrite => {
        const write = documentWrite({ docId, acl, chunks: [{ text: `${docId} body`, vector: vector() }] });
        return { ...write, document: { ...write.document, metadata: { thread, from: 'alice@x.org' } } };
      };
      await store.putDocuments([
        mail('a.eml', 'root@x.org', []),
        mail('b.eml', 'root@x.org', ['group:legal']),
        mail('c.eml', 'other@x.org', []),
        documentWrite({ docId: 'plain.md', chunks: [{ text: 'no metadata', vector: vector() }] }),
      ]);
      const listed = async (principal: typeof ADMIN, metadata: Record<string, string>, after?: string) =>
        (await store.listDocuments(principal, { limit: 10, metadata, ...(after ? { after } : {}) })).map(
          (doc) => doc.docId,
        );
      expect(await listed(ADMIN, { thread: 'root@x.org' })).toEqual(['a.eml', 'b.eml']);
      expect(await listed(ALICE, { thread: 'root@x.org' })).toEqual(['a.eml', 'b.eml']);
      expect(await listed(BOB, { thread: 'root@x.org' })).toEqual(['a.eml']);
      expect(await listed(ADMIN, { thread: 'root@x.org', from: 'alice@x.org' }, 'a.eml')).toEqual(['b.eml']);
      expect(await listed(ADMIN, { thread: 'root@x.org', from: 'bob@x.org' })).toEqual([]);
      expect(await listed(ADMIN, {})).toEqual(['a.eml', 'b.eml', 'c.eml', 'plain.md']);
      // A key is a snake_case word, never a JSON path or SQL of its own.
      await expectRejects(store.listDocuments(ADMIN, { limit: 10, metadata: { '$.thread': 'x' } }), 'invalid_input');
      await expectRejects(
        store.listDocuments(ADMIN, { limit: 10, metadata: { "thread') OR 1=1 --": 'x' } }),
        'invalid_input',
      );
    });

    it('refuses a batch with an attachment before its message or with another ACL, writing nothing', async () => {
      await expectRejects(store.putDocuments([attachment('a.pdf', 'walrus', []), message([])]), 'invalid_input');
      await expectRejects(
        store.putDocuments([message(['group:legal']), attachment('a.pdf', 'walrus', [])]),
        'invalid_input',
      );
      expect(await stored()).toEqual([]);
    });
  });
}
