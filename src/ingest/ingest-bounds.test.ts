import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { searchResultJson } from '../retrieval/search-result-json.ts';
import type { IngestOutcome } from './ingest-progress.ts';

let dir: string;
let docs: string;
let evident: Evident;

const open = async (env: Record<string, string> = {}) => {
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env, cwd: dir }));
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-bounds-'));
  docs = join(dir, 'docs');
  await mkdir(docs);
});

afterEach(async () => {
  await evident?.close();
  await rm(dir, { recursive: true, force: true });
});

const byId = (outcomes: IngestOutcome[]) => Object.fromEntries(outcomes.map((outcome) => [outcome.docId, outcome]));
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const paragraphs = (count: number, word: string) =>
  Array.from(
    { length: count },
    (_, i) => `${word} paragraph ${i} has enough plain words to fill part of a chunk of text here.`,
  ).join('\n\n');

describe('text and chunks per document', () => {
  it('fails a document over ingest.maxDocumentChars or ingest.maxDocumentChunks, keeps its stored version, ingests the rest', async () => {
    await open({ EVIDENT_MAX_DOCUMENT_CHARS: '20000', EVIDENT_MAX_DOCUMENT_CHUNKS: '5' });
    await writeFile(join(docs, 'many.md'), `# Many\n\n${paragraphs(3, 'Early')}\n`);
    expect((await evident.ingestor.ingest([docs])).added).toBe(1);
    const before = await evident.store.getDocument('many.md');

    await writeFile(join(docs, 'big.txt'), paragraphs(260, 'Long'));
    await writeFile(join(docs, 'many.md'), `# Many\n\n${paragraphs(100, 'Later')}\n`);
    await writeFile(join(docs, 'small.md'), '# Small\n\nSmall text.\n');
    const outcomes = byId((await evident.ingestor.ingest([docs])).outcomes);
    expect(outcomes['big.txt']?.error).toMatchObject({
      code: 'file_limit_exceeded',
      message: expect.stringMatching(
        /^big\.txt yields 2\d,\d{3} characters of text, over the ingest\.maxDocumentChars limit of 20,000 characters\. Split the file, or raise ingest\.maxDocumentChars \(EVIDENT_MAX_DOCUMENT_CHARS\) if it is genuine\.$/,
      ),
    });
    expect(outcomes['many.md']?.error).toMatchObject({
      code: 'file_limit_exceeded',
      message: expect.stringMatching(
        /^many\.md makes \d+ chunks, over the ingest\.maxDocumentChunks limit of 5 chunks\./,
      ),
    });
    expect(outcomes['small.md']?.status).toBe('added');
    expect(await evident.store.getDocument('many.md')).toEqual(before);
    expect(await evident.store.getDocument('big.txt')).toBeUndefined();
  });
});

describe('reading a file', () => {
  it('stores exactly the bytes it read while another process keeps appending, or fails with file_changed', async () => {
    await open();
    const path = join(docs, 'growing.log');
    await writeFile(path, Array.from({ length: 40_000 }, (_, i) => `start line ${i} of the log\n`).join(''));
    const writer = spawn(process.execPath, [
      '-e',
      // About 2 MB/s in writes of 4 KB, one every 2 ms: always mid-append while a round reads the file.
      `const fs = require('node:fs'); const pause = new Int32Array(new SharedArrayBuffer(4)); let i = 0;
       for (;;) { fs.appendFileSync(${JSON.stringify(path)}, ('appended line ' + i++ + ' of the log\\n').repeat(160)); Atomics.wait(pause, 0, 0, 2); }`,
    ]);
    const seen: { status: string; code?: string; hash?: string | undefined; bytes?: number | undefined }[] = [];
    try {
      for (let round = 0; round < 6; round += 1) {
        const [outcome] = (await evident.ingestor.ingest([path], { force: true })).outcomes;
        const doc = await evident.store.getDocument('growing.log');
        seen.push({
          status: outcome?.status ?? '',
          ...(outcome?.error ? { code: outcome.error.code } : { hash: doc?.contentHash, bytes: doc?.bytes }),
        });
      }
    } finally {
      writer.kill('SIGKILL');
    }
    // Appends only: every complete read is a prefix of the final file; its hash and size must be that prefix's.
    const final = readFileSync(path);
    for (const round of seen) {
      if (round.status === 'failed') {
        expect(round.code).toBe('file_changed');
      } else {
        expect(round.bytes).toBeGreaterThan(0);
        expect(round.hash).toBe(sha256(final.subarray(0, round.bytes)));
      }
    }
  }, 60_000);

  it('fails a FIFO given as a file instead of waiting on it', async () => {
    await open();
    const fifo = join(docs, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    const [outcome] = (await evident.ingestor.ingest([fifo])).outcomes;
    expect(outcome?.error).toMatchObject({
      code: 'file_unreadable',
      message: 'pipe.txt is not a regular file. Ingest regular files only (not devices, pipes or sockets).',
    });
  });
});

describe('doc ids', () => {
  it('refuses file and folder names with bidirectional or control characters, written out, and ingests the rest', async () => {
    await open();
    await writeFile(join(docs, 'invoice\u202Efdp.md'), '# Invoice\n\nText.\n');
    await mkdir(join(docs, 'a\u0085b'));
    await writeFile(join(docs, 'a\u0085b', 'x.md'), '# X\n\nText.\n');
    await writeFile(join(docs, 'iso\u2067late.txt'), 'Text.\n');
    await writeFile(join(docs, 'ok.md'), '# Ok\n\nText.\n');
    const summary = await evident.ingestor.ingest([docs]);
    expect(summary.outcomes.map((o) => [o.docId, o.status, o.error?.code])).toEqual([
      ['a<U+0085>b/x.md', 'failed', 'doc_id_invalid'],
      ['invoice<U+202E>fdp.md', 'failed', 'doc_id_invalid'],
      ['iso<U+2067>late.txt', 'failed', 'doc_id_invalid'],
      ['ok.md', 'added', undefined],
    ]);
    expect(summary.outcomes[1]?.error?.message).toBe(
      'The file name invoice<U+202E>fdp.md holds the control or bidirectional character U+202E, so it cannot be a doc_id. Rename the file (or the folder) without control, bidirectional-override or isolate characters, and ingest it again.',
    );
    expect(JSON.stringify(summary)).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0080-\u009f]/);
    expect((await evident.store.listDocuments(LOCAL_OPERATOR)).map((d) => d.docId)).toEqual(['ok.md']);
  });

  it('refuses a doc_id over 512 characters (what the audit log records of an id), so no search of it goes unaudited', async () => {
    await open();
    const deep = join(docs, 'a'.repeat(200), 'b'.repeat(200), 'c'.repeat(120));
    await mkdir(deep, { recursive: true });
    await writeFile(join(deep, 'notes.md'), '# Notes\n\nLighthouse keeper rota.\n');
    const [outcome] = (await evident.ingestor.ingest([docs])).outcomes;
    expect(outcome?.status).toBe('failed');
    expect(outcome?.error?.code).toBe('doc_id_invalid');
    expect(outcome?.error?.message).toMatch(/has 531 characters, more than the 512 a doc_id may have/);
    expect(await evident.store.listDocuments(LOCAL_OPERATOR)).toEqual([]);
  });
});

describe('source', () => {
  it('is the doc_id, so search results and citations never show where the server keeps its files', async () => {
    await open();
    await mkdir(join(docs, 'contracts'));
    await writeFile(join(docs, 'contracts', 'ct-7.md'), '# Contract CT-7\n\nContract CT-7 sets a fee of $4,100.\n');
    await evident.ingestor.ingest([docs]);
    expect((await evident.store.getDocument('contracts/ct-7.md'))?.source).toBe('contracts/ct-7.md');
    const trace = await evident.search.search('CT-7 fee', { id: 'user:bob', groups: [], roles: [] });
    const results = trace.results.map((result) => searchResultJson(result, 'ranks'));
    expect(results[0]).toMatchObject({ doc_id: 'contracts/ct-7.md', source: 'contracts/ct-7.md' });
    expect(JSON.stringify(results)).not.toContain(dir);
    expect((await evident.ingestor.ingest([docs])).unchanged).toBe(1);
  });

  it('rewrites a version stored with a server path as its source once, then re-ingests as a no-op', async () => {
    await open();
    await writeFile(join(docs, 'a.md'), '# A\n\nAlpha text.\n');
    await evident.ingestor.ingest([docs]);
    // As an older version stored it: the absolute path.
    const db = new Database(join(dir, 'store.db'));
    db.prepare('UPDATE documents SET source = ? WHERE doc_id = ?').run(join(docs, 'a.md'), 'a.md');
    db.close();
    expect((await evident.ingestor.ingest([docs])).updated).toBe(1);
    expect((await evident.store.getDocument('a.md'))?.source).toBe('a.md');
    expect((await evident.ingestor.ingest([docs])).unchanged).toBe(1);
    expect(await readFile(join(docs, 'a.md'), 'utf8')).toBe('# A\n\nAlpha text.\n');
  });
});
