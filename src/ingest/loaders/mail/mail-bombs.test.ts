import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/index.ts';
import { LOCAL_OPERATOR } from '../../../domain/index.ts';
import { IngestError, IngestLimitError } from '../../../errors/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { buildEml, buildMsg, type MailPart } from '../../../testing/mail-builder.ts';
import { MAX_ATTACHMENT_DEPTH } from '../../attachment-documents.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../../limits.ts';
import { emlLoader } from './eml-loader.ts';
import { mboxLoader } from './mbox-loader.ts';
import { msgLoader } from './msg-loader.ts';

const limits = (overrides: Partial<IngestLimits>): IngestLimits => ({ ...INGEST_DEFAULTS, ...overrides });
const text = (name: string, body: string): MailPart => ({ name, contentType: 'text/plain', bytes: Buffer.from(body) });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('e-mail loader bounds and typed errors', () => {
  it('fails a message with more attachments than ingest.maxArchiveEntries, naming the setting', async () => {
    const mail = buildEml({
      subject: 'Many',
      text: 'x',
      attachments: Array.from({ length: 5 }, (_, i) => text(`a${i}.txt`, 'y')),
    });
    const error = await failure(emlLoader.load(mail, '/in/many.eml', limits({ maxArchiveEntries: 3 })));
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    expect((error as IngestLimitError).details).toMatchObject({ setting: 'ingest.maxArchiveEntries' });
    expect((error as Error).message).toMatch(/many\.eml carries more than 3 attachments/);
  });

  it('fails a message whose attachments decode past ingest.maxExpandedBytes', async () => {
    const mail = buildEml({ subject: 'Big', text: 'x', attachments: [text('big.txt', 'z'.repeat(8192))] });
    const error = await failure(emlLoader.load(mail, '/in/big.eml', limits({ maxExpandedBytes: 4096 })));
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    expect((error as IngestLimitError).details).toMatchObject({ setting: 'ingest.maxExpandedBytes' });
  });

  it('fails a mailbox of more messages than ingest.maxArchiveEntries before parsing them', async () => {
    const mbox = Buffer.from('From a@x Tue Dec 1 10:00:00 2026\nSubject: s\n\nb\n\n'.repeat(20));
    const error = await failure(mboxLoader.load(mbox, '/in/box.mbox', limits({ maxArchiveEntries: 10 })));
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/box\.mbox holds more than 10 messages/);
  });

  it('fails a .msg whose sector chain points back at itself, before msgreader follows it', async () => {
    const msg = Buffer.from(buildMsg({ subject: 'Loop', body: 'x' }));
    // The FAT entry of the directory's first sector names that sector again: msgreader would walk it forever.
    const sector = msg.readUInt32LE(0x30);
    const fat = msg.readUInt32LE(0x4c);
    msg.writeUInt32LE(sector, (fat + 1) * 512 + 4 * sector);
    const error = await failure(msgLoader.load(msg, '/in/loop.msg'));
    expect(IngestError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /loop\.msg is not a readable Outlook message \(\.msg\): its directory chain loops/,
    );
  });

  it('fails a .msg whose streams add up past ingest.maxExpandedBytes', async () => {
    const msg = Buffer.from(buildMsg({ subject: 'Big', body: 'y'.repeat(6000) }));
    const error = await failure(msgLoader.load(msg, '/in/big.msg', limits({ maxExpandedBytes: 4096 })));
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    expect((error as IngestLimitError).details).toMatchObject({ setting: 'ingest.maxExpandedBytes' });
  });

  it.each([
    ['binary noise as .eml', emlLoader, '/in/noise.eml', Buffer.from([0, 159, 146, 150, 1, 2, 3, 0, 255, 254])],
    ['prose without headers as .eml', emlLoader, '/in/prose.eml', Buffer.from('Just a note\nwith lines.\n')],
    ['a file that is no mailbox as .mbox', mboxLoader, '/in/box.mbox', Buffer.from('Subject: hi\n\nbody\n')],
    ['a zip as .msg', msgLoader, '/in/item.msg', Buffer.from('PK\u0003\u0004 not a compound file at all')],
    ['a truncated compound file as .msg', msgLoader, '/in/cut.msg', Buffer.from('d0cf11e0a1b11ae1', 'hex')],
  ])('fails %s with file_corrupt', async (_name, loader, path, bytes) => {
    const error = await failure(loader.load(bytes, path));
    expect(IngestError.isInstance(error), String(error)).toBe(true);
    expect((error as IngestError).code).toBe('file_corrupt');
  });
});

describe('e-mail attachment bounds through the ingestor', () => {
  let dir: string;
  let docs: string;
  let evident: Evident;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-mail-bombs-'));
    docs = join(dir, 'docs');
    await mkdir(docs);
    evident = await createEvident(
      loadConfig({ flags: { db: join(dir, 'store.db') }, env: { EVIDENT_MAX_ARCHIVE_ENTRIES: '4' }, cwd: dir }),
    );
  });

  afterEach(async () => {
    await evident.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ingest = async () => {
    const summary = await evident.ingestor.ingest([docs]);
    return Object.fromEntries(summary.outcomes.map((outcome) => [outcome.docId, outcome]));
  };
  const storedIds = async () => (await evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => doc.docId);

  /** A message forwarding `inner` (as message/rfc822), with its own text attachment. */
  const forward = (level: number, inner?: Buffer) =>
    buildEml({
      from: `level${level}@x.org`,
      subject: `Level ${level}`,
      messageId: `<l${level}@x.org>`,
      text: `Forwarding level ${level}.`,
      attachments: [
        text(`note${level}.txt`, `Note of level ${level}: sturgeon ${level}.`),
        ...(inner ? [{ name: `level${level + 1}.eml`, contentType: 'message/rfc822', bytes: inner }] : []),
      ],
    });

  it(`reads messages nested ${MAX_ATTACHMENT_DEPTH} deep and skips deeper ones with the reason`, async () => {
    let message: Buffer | undefined;
    for (let level = MAX_ATTACHMENT_DEPTH + 1; level >= 1; level -= 1) message = forward(level, message);
    await writeFile(join(docs, 'chain.eml'), message!);
    // Each message carries 2 attachments, 8 in all: this test reads it with the default ingest.maxArchiveEntries.
    await evident.close();
    evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
    const outcome = (await ingest())['chain.eml'];
    expect(outcome).toMatchObject({ status: 'added' });
    expect(await storedIds()).toEqual([
      'chain.eml',
      'chain.eml/level2.eml',
      'chain.eml/level2.eml/level3.eml',
      'chain.eml/level2.eml/level3.eml/level4.eml',
      'chain.eml/level2.eml/level3.eml/note3.txt',
      'chain.eml/level2.eml/note2.txt',
      'chain.eml/note1.txt',
    ]);
    // Level 4 is attached at depth 3: its own attachment would be a fourth level, so it is skipped, and it says so.
    const level4 = await evident.store.getDocument('chain.eml/level2.eml/level3.eml/level4.eml');
    expect(level4?.metadata).toMatchObject({
      subject: 'Level 4',
      skipped_attachments: `note4.txt: nested more than ${MAX_ATTACHMENT_DEPTH} messages deep`,
    });
    // Every document of the tree is replaced and deleted with the file ingested.
    expect(level4?.parent).toBe('chain.eml');
    expect(await evident.store.deleteDocument('chain.eml')).toBe(true);
    expect(await storedIds()).toEqual([]);
  });

  it('fails the file, storing nothing of it, when its nested attachments add up past ingest.maxArchiveEntries', async () => {
    // Three levels of two attachments each: no message over 4, the tree over it.
    await writeFile(join(docs, 'tree.eml'), forward(1, forward(2, forward(3))));
    await writeFile(join(docs, 'plain.eml'), buildEml({ subject: 'Plain', text: 'Unrelated.' }));
    const outcomes = await ingest();
    expect(outcomes['tree.eml']).toMatchObject({
      status: 'failed',
      error: {
        code: 'file_limit_exceeded',
        message: expect.stringMatching(/tree\.eml carries more than 4 attachments/),
      },
    });
    expect(outcomes['plain.eml']).toMatchObject({ status: 'added' });
    expect(await storedIds()).toEqual(['plain.eml']);
  });

  it('skips an unsupported or unreadable attachment with its reason and keeps the message', async () => {
    await writeFile(
      join(docs, 'mixed.eml'),
      buildEml({
        subject: 'Mixed',
        text: 'See attached.',
        attachments: [
          { name: 'setup.exe', contentType: 'application/octet-stream', bytes: Buffer.from('MZ\u0090\u0000') },
          { name: 'broken.pdf', contentType: 'application/pdf', bytes: Buffer.from('%PDF-1.7 this is not a PDF body') },
          text('ok.txt', 'Readable albatross note.'),
        ],
      }),
    );
    const outcome = (await ingest())['mixed.eml'];
    expect(outcome).toMatchObject({ status: 'added', attachments: ['mixed.eml/ok.txt'] });
    const skipped = (await evident.store.getDocument('mixed.eml'))?.metadata?.skipped_attachments ?? '';
    expect(skipped).toContain('setup.exe: unsupported file type (.exe)');
    expect(skipped).toMatch(/broken\.pdf: .*broken\.pdf/);
    expect(await storedIds()).toEqual(['mixed.eml', 'mixed.eml/ok.txt']);
  });
});
