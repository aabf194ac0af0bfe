import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../domain/index.ts';
import { documentJson, toDocumentJson } from './document-json.ts';

const base: DocumentRecord = {
  docId: 'mail/contract.eml',
  source: 'mail/contract.eml',
  title: 'Contract',
  type: 'email',
  contentHash: 'h',
  bytes: 10,
  acl: ['group:legal'],
  tags: [],
  chunkCount: 2,
  ingestedAt: '2026-12-05T10:00:00.000Z',
};

describe('a listed document', () => {
  it("shows an e-mail's headers and thread as metadata, and an attachment's parent", () => {
    const message = toDocumentJson({ ...base, metadata: { from: 'alice@x.org', thread: 'root@x.org' } });
    expect(documentJson.parse(message)).toMatchObject({
      metadata: { from: 'alice@x.org', thread: 'root@x.org' },
      parent: null,
    });
    const attachment = toDocumentJson({ ...base, docId: 'mail/contract.eml/a.pdf', type: 'pdf', parent: base.docId });
    expect(documentJson.parse(attachment)).toMatchObject({ metadata: {}, parent: 'mail/contract.eml' });
  });
});
