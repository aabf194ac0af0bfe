import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/index.ts';
import type { Principal } from '../../../domain/index.ts';
import { LOCAL_OPERATOR } from '../../../domain/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { buildEml, buildMbox, buildMsg } from '../../../testing/mail-builder.ts';
import { buildPdf } from '../../../testing/pdf-builder.ts';
import { analyzeQuery } from '../../../text/analyzer.ts';

let dir: string;
let docs: string;
let evident: Evident;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-mail-'));
  docs = join(dir, 'docs');
  await mkdir(docs);
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
});

afterEach(async () => {
  await evident.close();
  await rm(dir, { recursive: true, force: true });
});

const legal: Principal = { id: 'lena', groups: ['legal'], roles: ['member'] };
const outsider: Principal = { id: 'otto', groups: ['sales'], roles: ['member'] };

/** The doc_ids of the chunks `principal` finds for `query` through the store's principal-filtered keyword search. */
async function found(query: string, principal: Principal): Promise<string[]> {
  const hits = await evident.store.keywordSearch(analyzeQuery(query), principal, 20);
  const chunks = await evident.store.getChunks(
    hits.map((hit) => hit.chunkId),
    principal,
  );
  return [...new Set(chunks.map((chunk) => chunk.docId))].sort();
}

const ingest = async () => {
  const summary = await evident.ingestor.ingest([docs]);
  return Object.fromEntries(summary.outcomes.map((outcome) => [outcome.docId, outcome]));
};

const contractPdf = buildPdf([[{ text: 'Indemnity clause: the supplier pays the zeppelin repair costs.' }]]);

const contractMail = (attachments = [{ name: 'contract.pdf', contentType: 'application/pdf', bytes: contractPdf }]) =>
  buildEml({
    from: '"Alice Archer" <alice@example.org>',
    to: 'bob@example.org',
    cc: 'carol@example.org',
    subject: 'Supplier contract, signed copy',
    date: 'Tue, 1 Dec 2026 10:00:00 +0000',
    messageId: '<contract-1@example.org>',
    text: 'Hello Bob,\n\nthe signed contract is attached; the café opens at nine.\n\nAlice',
    attachments,
  });

describe('e-mail through the ingestor', () => {
  it('stores a message with searchable headers, metadata, and its PDF attachment as its own document under the message ACL', async () => {
    await writeFile(join(docs, 'contract.eml'), contractMail());
    await writeFile(join(docs, 'contract.eml.acl.json'), JSON.stringify({ acl: ['group:legal'] }));
    const outcomes = await ingest();
    expect(outcomes['contract.eml']).toMatchObject({ status: 'added', attachments: ['contract.eml/contract.pdf'] });

    const message = await evident.store.getDocument('contract.eml');
    expect(message).toMatchObject({
      title: 'Supplier contract, signed copy',
      type: 'email',
      acl: ['group:legal'],
      metadata: {
        from: '"Alice Archer" <alice@example.org>',
        to: 'bob@example.org',
        cc: 'carol@example.org',
        date: '2026-12-01T10:00:00.000Z',
        subject: 'Supplier contract, signed copy',
        message_id: 'contract-1@example.org',
        thread: 'contract-1@example.org',
        attachments: 'contract.eml/contract.pdf',
      },
    });
    const attachment = await evident.store.getDocument('contract.eml/contract.pdf');
    expect(attachment).toMatchObject({ type: 'pdf', acl: ['group:legal'], parent: 'contract.eml' });

    // The header block makes sender and date searchable; quoted-printable is decoded (café).
    expect(await found('Alice Archer', legal)).toEqual(['contract.eml']);
    expect(await found('café', legal)).toEqual(['contract.eml']);
    // The attachment's text is found by the message's readers, and by nobody outside its ACL.
    expect(await found('zeppelin repair', legal)).toEqual(['contract.eml/contract.pdf']);
    expect(await found('zeppelin repair', outsider)).toEqual([]);
    expect(await found('Alice Archer', outsider)).toEqual([]);
  });

  it("keeps an uploaded message's attachment file with it, for its readers only", async () => {
    const path = join(docs, 'upload.eml');
    await writeFile(path, contractMail());
    const summary = await evident.ingestor.ingestFiles([{ path, docId: 'inbox/upload.eml', keepOriginal: true }], {
      acl: ['group:legal'],
    });
    expect(summary.outcomes[0]).toMatchObject({ status: 'added', attachments: ['inbox/upload.eml/contract.pdf'] });
    const attachment = await evident.store.getDocument('inbox/upload.eml/contract.pdf');
    const read = (principal: Principal) =>
      evident.store.readDocumentFile(attachment!.docId, attachment!.contentHash, principal, 1024 * 1024);
    expect(Buffer.from((await read(legal)) ?? [])).toEqual(contractPdf);
    expect(await read(outsider)).toBeUndefined();
  });

  it('replaces and deletes the attachments with their message, leaving no orphan', async () => {
    const path = join(docs, 'contract.eml');
    await writeFile(path, contractMail());
    await ingest();
    expect(await evident.store.getDocument('contract.eml/contract.pdf')).toBeDefined();

    // A new version without the PDF but with a text note: the PDF's document goes, the note's comes.
    await writeFile(
      path,
      contractMail([{ name: 'note.txt', contentType: 'text/plain', bytes: Buffer.from('Quokka count: seven.') }]),
    );
    expect((await ingest())['contract.eml']).toMatchObject({ status: 'updated' });
    const ids = (await evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => doc.docId);
    expect(ids).toEqual(['contract.eml', 'contract.eml/note.txt']);
    expect(await found('zeppelin', LOCAL_OPERATOR)).toEqual([]);

    expect(await evident.store.deleteDocument('contract.eml')).toBe(true);
    expect(await evident.store.listDocuments(LOCAL_OPERATOR)).toEqual([]);
    expect(await found('quokka', LOCAL_OPERATOR)).toEqual([]);
  });

  it('gives a new ACL of the message to its attachments in the same write', async () => {
    await writeFile(join(docs, 'contract.eml'), contractMail());
    await ingest();
    const message = await evident.store.getDocument('contract.eml');
    expect(await evident.store.updateDocumentAcl('contract.eml', message!.contentHash, ['user:lena'])).toBe(true);
    expect((await evident.store.getDocument('contract.eml/contract.pdf'))?.acl).toEqual(['user:lena']);
    expect(await found('zeppelin', outsider)).toEqual([]);
  });

  it('keys the messages of a thread by the id of the message that started it', async () => {
    const root = buildEml({ from: 'a@x.org', subject: 'Budget', messageId: '<root@x.org>', text: 'Start.' });
    const reply = buildEml({
      from: 'b@x.org',
      subject: 'Re: Budget',
      messageId: '<reply@x.org>',
      inReplyTo: '<root@x.org>',
      references: '<root@x.org>',
      text: 'Agreed.\n\n> Start.',
    });
    // A client that sends In-Reply-To only still joins the thread through the parent it names.
    const late = buildEml({
      from: 'c@x.org',
      subject: 'Re: Budget',
      messageId: '<late@x.org>',
      inReplyTo: '<root@x.org>',
      text: 'Late.',
    });
    const other = buildEml({ from: 'd@x.org', subject: 'Lunch', messageId: '<lunch@x.org>', text: 'Noon?' });
    for (const [name, bytes] of Object.entries({ root, reply, late, other }))
      await writeFile(join(docs, `${name}.eml`), bytes);
    await ingest();
    const threads = Object.fromEntries(
      (await evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => [doc.docId, doc.metadata?.thread]),
    );
    expect(threads).toEqual({
      'late.eml': 'root@x.org',
      'other.eml': 'lunch@x.org',
      'reply.eml': 'root@x.org',
      'root.eml': 'root@x.org',
    });
    expect((await evident.store.getDocument('reply.eml'))?.metadata).toMatchObject({
      in_reply_to: 'root@x.org',
      references: 'root@x.org',
    });
  });

  it('cites each message of a mailbox by its number, and names its attachments by it', async () => {
    const mbox = buildMbox([
      buildEml({ from: 'a@x.org', subject: 'First', messageId: '<m1@x.org>', text: 'Walrus numbers are up.' }),
      buildEml({
        from: 'b@x.org',
        subject: 'Second',
        messageId: '<m2@x.org>',
        html: '<html><body><p>Only <b>HTML</b>: the narwhal report.</p><p>From here on, details.</p></body></html>',
        attachments: [{ name: 'facts.txt', contentType: 'text/plain', bytes: Buffer.from('Narwhal tusks are teeth.') }],
      }),
    ]);
    await writeFile(join(docs, 'team.mbox'), mbox);
    const outcomes = await ingest();
    expect(outcomes['team.mbox']).toMatchObject({ status: 'added', attachments: ['team.mbox/message 2/facts.txt'] });
    expect(await evident.store.getDocument('team.mbox')).toMatchObject({ type: 'mbox', pageCount: 2 });

    const hits = await evident.store.keywordSearch(analyzeQuery('narwhal report'), LOCAL_OPERATOR, 5);
    const [chunk] = await evident.store.getChunks([hits[0]!.chunkId], LOCAL_OPERATOR);
    expect(chunk).toMatchObject({ docId: 'team.mbox', page: 2, headingPath: ['Second'] });
    // A body line starting with "From " survives the mbox escaping.
    expect(chunk?.text).toContain('From here on, details.');
    const [walrus] = await evident.store.getChunks(
      (await evident.store.keywordSearch(analyzeQuery('walrus'), LOCAL_OPERATOR, 5)).map((hit) => hit.chunkId),
      LOCAL_OPERATOR,
    );
    expect(walrus?.page).toBe(1);
    expect(await found('tusks', LOCAL_OPERATOR)).toEqual(['team.mbox/message 2/facts.txt']);
  });

  it('reads an Outlook .msg with its transport headers and attachment', async () => {
    const msg = buildMsg({
      subject: 'Quarterly numbers',
      body: 'The pelican budget is final.',
      senderName: 'Alice Example',
      senderEmail: 'alice@example.org',
      transportHeaders:
        'Message-ID: <q3@example.org>\r\nIn-Reply-To: <q2@example.org>\r\nReferences: <q1@example.org>\r\n <q2@example.org>\r\n',
      attachments: [{ name: 'figures.txt', bytes: Buffer.from('Pelican count: 41.') }],
    });
    await writeFile(join(docs, 'numbers.msg'), msg);
    await writeFile(join(docs, 'numbers.msg.acl.json'), JSON.stringify({ acl: ['group:legal'] }));
    const msgOutcome = (await ingest())['numbers.msg'];
    expect(msgOutcome?.error).toBeUndefined();
    expect(msgOutcome).toMatchObject({ status: 'added' });
    expect(await evident.store.getDocument('numbers.msg')).toMatchObject({
      title: 'Quarterly numbers',
      metadata: {
        from: 'Alice Example <alice@example.org>',
        message_id: 'q3@example.org',
        references: 'q1@example.org q2@example.org',
        thread: 'q1@example.org',
      },
    });
    expect(await found('budget', legal)).toEqual(['numbers.msg']);
    expect(await found('count', legal)).toEqual(['numbers.msg/figures.txt']);
    expect(await found('pelican', outsider)).toEqual([]);
  });
});
