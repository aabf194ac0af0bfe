import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/index.ts';
import { LOCAL_OPERATOR } from '../../../domain/index.ts';
import { ERROR_CODES, IngestError, type ErrorCode } from '../../../errors/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import type { Logger } from '../../../logging/logger.ts';
import { mutants } from '../../../testing/file-mutations.ts';
import { buildEml, buildMbox, buildMsg } from '../../../testing/mail-builder.ts';
import { buildPdf } from '../../../testing/pdf-builder.ts';
import { loaderFor } from '../index.ts';

const pdf = buildPdf([[{ text: 'Clause 4: the supplier repairs the crane within 5 days.' }]]);
const message = (subject: string) =>
  buildEml({
    from: 'alice@example.org',
    to: 'bob@example.org',
    subject,
    messageId: `<${subject.toLowerCase()}@example.org>`,
    text: 'The contract is attached; the café opens at nine.\n\n> earlier words',
    html: '<p>The contract is <b>attached</b>.</p>',
    attachments: [
      { name: 'contract.pdf', contentType: 'application/pdf', bytes: pdf },
      { name: 'note.txt', contentType: 'text/plain', bytes: Buffer.from('Heron count: 12.') },
    ],
  });

/** One valid file of each e-mail type, with headers, bodies and attachments for mutations to break. */
const SEEDS: Record<string, Buffer> = {
  'mail.eml': message('Contract'),
  'box.mbox': buildMbox([message('First'), message('Second')]),
  'item.msg': Buffer.from(
    buildMsg({
      subject: 'Numbers',
      body: 'The budget is final.',
      senderName: 'Alice',
      senderEmail: 'alice@example.org',
      transportHeaders: 'Message-ID: <n@example.org>\r\n',
      attachments: [{ name: 'figures.txt', bytes: Buffer.from('Count: 41.') }],
    }),
  ),
};

const INGEST_CODES: readonly ErrorCode[] = ERROR_CODES.filter(
  (code) => code.startsWith('file_') || code.startsWith('pdf_') || code.startsWith('acl_'),
);

describe('e-mail loaders on mutated and truncated files (seeded)', () => {
  it.each(Object.keys(SEEDS).map((name, index) => [name, 3000 + index] as const))(
    '%s: each case loads or fails with an IngestError',
    async (name, seed) => {
      const loader = loaderFor(name);
      for (const { bytes, label } of mutants(SEEDS[name] as Buffer, name, seed, 60)) {
        const result = await loader!.load(bytes, `/fuzz/${name}`).then(
          (doc) => ({ doc }),
          (error: unknown) => ({ error }),
        );
        if ('error' in result) {
          expect(IngestError.isInstance(result.error), `${label}: ${String(result.error)}`).toBe(true);
          expect(INGEST_CODES, label).toContain((result.error as IngestError).code);
        } else {
          for (const block of result.doc.blocks) expect(typeof block.text, label).toBe('string');
          for (const attachment of result.doc.attachments ?? [])
            expect(attachment.name, label).not.toMatch(/^\/|\.\.\//);
        }
      }
    },
  );
});

describe('a mutated message never leaves half of itself stored', () => {
  let dir: string;
  let evident: Evident;
  const logged: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn() {},
    error: (text, fields) => void logged.push(`${text} ${JSON.stringify(fields)}`),
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-mail-fuzz-'));
    evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }), { logger });
  });

  afterAll(async () => {
    await evident?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The file's document and those found inside it, as stored. */
  const family = async (name: string) =>
    (await evident.store.listDocuments(LOCAL_OPERATOR))
      .filter((doc) => doc.docId === name || doc.parent === name)
      .map(({ ingestedAt: _, ...doc }) => doc);

  it.each(Object.keys(SEEDS).map((name, index) => [name, 4000 + index] as const))(
    '%s through the ingestor',
    async (name, seed) => {
      const path = join(dir, name);
      await writeFile(path, SEEDS[name] as Buffer);
      await writeFile(`${path}.acl.json`, '{"acl": ["group:legal"]}');
      const [first] = (await evident.ingestor.ingest([path])).outcomes;
      expect(first?.status, JSON.stringify(first)).toBe('added');
      let stored = await family(name);
      expect(stored.length).toBeGreaterThan(1); // the message and its attachments
      let failures = 0;
      for (const { bytes, label } of mutants(SEEDS[name] as Buffer, name, seed, 20)) {
        await writeFile(path, bytes);
        const [outcome] = (await evident.ingestor.ingest([path])).outcomes;
        if (outcome?.status === 'failed') {
          failures += 1;
          expect(INGEST_CODES, `${label}: ${JSON.stringify(outcome.error)}`).toContain(outcome.error?.code);
          expect(await family(name), label).toEqual(stored);
        } else {
          stored = await family(name);
          for (const doc of stored) expect(doc.acl, `${label}: ${doc.docId}`).toEqual(['group:legal']);
          // Whatever a mutant's attachments became, none of the version before it is left behind.
          const attachments = stored.filter((doc) => doc.parent === name).map((doc) => doc.docId);
          expect(attachments.sort(), label).toEqual([...(outcome?.attachments ?? [])].sort());
        }
      }
      // mailparser reads nearly any bytes as a message; a compound file breaks.
      if (name.endsWith('.msg')) expect(failures).toBeGreaterThan(0);
      expect(logged).toEqual([]); // no loader bug, no store failure
    },
  );
});
