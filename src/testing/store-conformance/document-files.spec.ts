import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DocumentWrite, Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ADMIN, ALICE, badTable, BOB, documentWrite, expectRejects, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

const BOUND = 1 << 20;

/** Bytes that look like a file (a NUL, high bytes): the store keeps them exactly, not as text. */
const fileBytes = (label: string): Uint8Array =>
  new Uint8Array(
    Buffer.concat([Buffer.from('%PDF-1.7\n\u0000\u00ff'), Buffer.from(label), Buffer.from([0, 255, 128, 10])]),
  );

/** Uploaded originals, kept with their version (the document port): one transaction with it, gone with it, bounded. */
export function describeDocumentFiles(suite: ConformanceSuite): void {
  describe('original files', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });
    const next = random(31);
    /** A version of `docId` whose original is `bytes` (its hash and length are the document's, as ingestion makes them). */
    const upload = (docId: string, bytes: Uint8Array, acl: string[] = []): DocumentWrite => {
      const write = documentWrite({ docId, acl, chunks: [{ text: `text of ${docId}`, vector: unitVector(next) }] });
      write.document = {
        ...write.document,
        contentHash: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.byteLength,
      };
      return { ...write, original: bytes };
    };
    const read = (write: DocumentWrite, principal = ADMIN, maxBytes = BOUND) =>
      store.readDocumentFile(write.document.docId, write.document.contentHash, principal, maxBytes);

    it('keeps the exact bytes with the version, for a principal who may read the document and no other', async () => {
      const legal = upload('contracts/legal.pdf', fileBytes('legal'), ['group:legal']);
      await store.putDocument(legal);
      expect(Buffer.from((await read(legal)) ?? [])).toEqual(Buffer.from(legal.original as Uint8Array));
      expect(Buffer.from((await read(legal, ALICE)) ?? [])).toEqual(Buffer.from(legal.original as Uint8Array));
      expect(await read(legal, BOB)).toBeUndefined();
      expect(
        await store.readDocumentFile('contracts/missing.pdf', legal.document.contentHash, ADMIN, BOUND),
      ).toBeUndefined();
    });

    it('keeps none for a version written without one (a folder ingest)', async () => {
      const plain = documentWrite({ docId: 'notes.md', chunks: [{ text: 'notes', vector: unitVector(next) }] });
      await store.putDocument(plain);
      expect(await read(plain)).toBeUndefined();
    });

    it("writes it in the version's transaction: a batch that fails keeps neither the versions nor their files", async () => {
      const kept = upload('a.pdf', fileBytes('a'));
      const broken = { ...upload('b.pdf', fileBytes('b')), tables: [badTable()] };
      await expectRejects(store.putDocuments([kept, broken]));
      expect(await store.getDocument('a.pdf')).toBeUndefined();
      expect(await read(kept)).toBeUndefined();
      await store.putDocuments([kept, upload('b.pdf', fileBytes('b'))]);
      expect(Buffer.from((await read(kept)) ?? [])).toEqual(Buffer.from(kept.original as Uint8Array));
    });

    it('replaces it with the version and deletes it with the document; an ACL change keeps it', async () => {
      const v1 = upload('report.pdf', fileBytes('version one'));
      const v2 = upload('report.pdf', fileBytes('version two, longer'));
      await store.putDocument(v1);
      await store.putDocument(v2);
      expect(await read(v1)).toBeUndefined();
      expect(Buffer.from((await read(v2)) ?? [])).toEqual(Buffer.from(v2.original as Uint8Array));

      expect(await store.updateDocumentAcl('report.pdf', v2.document.contentHash, ['user:bob'])).toBe(true);
      expect(await read(v2, BOB)).toBeDefined();
      expect(await read(v2, ALICE)).toBeUndefined();

      // A version without an original (the same doc_id ingested from a folder) leaves none of the upload's behind.
      const fromFolder = documentWrite({
        docId: 'report.pdf',
        chunks: [{ text: 'from a folder', vector: unitVector(next) }],
      });
      await store.putDocument({
        ...fromFolder,
        document: { ...fromFolder.document, contentHash: v2.document.contentHash },
      });
      expect(await read(v2)).toBeUndefined();

      await store.putDocument(v2);
      expect(await store.deleteDocument('report.pdf')).toBe(true);
      expect(await read(v2)).toBeUndefined();
    });

    it("is bounded: a file over the read bound is not read, and a write must hold the version's own bytes", async () => {
      const bytes = fileBytes('bounded');
      const write = upload('bounded.pdf', bytes);
      await store.putDocument(write);
      expect(await read(write, ADMIN, bytes.byteLength - 1)).toBeUndefined();
      expect((await read(write, ADMIN, bytes.byteLength))?.byteLength).toBe(bytes.byteLength);

      const other = fileBytes('other');
      await expectRejects(store.putDocument({ ...upload('wrong.pdf', bytes), original: other }), 'invalid_input');
      const truncated = upload('short.pdf', bytes);
      await expectRejects(store.putDocument({ ...truncated, original: bytes.subarray(1) }), 'invalid_input');
      expect(await store.getDocument('wrong.pdf')).toBeUndefined();
      expect(await store.getDocument('short.pdf')).toBeUndefined();
    });
  });
}
