import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../../config/index.ts';
import type { Principal } from '../../domain/index.ts';
import { createEvident } from '../../evident.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { pngHeaderOnly } from '../../testing/png-header.ts';
import { describeWith, ocrTools } from '../../testing/requirements.ts';
import { buildTiff, readPgm } from '../../testing/tiff-builder.ts';
import type { IngestSummary } from '../ingest-progress.ts';

const reader: Principal = { id: 'reader', groups: [], roles: ['member'] };
const DPI = 150;
const RECEIPT = ['Receipt for the berth fee of the ferry Aurora,', 'paid at the harbour office on the ninth of May.'];
const PHOTO = ['The lighthouse keeper logs the fog signal', 'every night between October and March.'];
// Each page is most of a chunk (chunk.size 200), so a chunk starts at each page and its page can be checked.
const FAX = [
  [
    'Fax page one: the pilot boat leaves at dawn',
    'from the northern basin with two crew and',
    'returns before noon when the weather holds,',
    'as the harbour master asked in writing.',
  ],
  [
    'Fax page two: the crane on quay four is',
    'closed for repairs until Friday, and the',
    'cargo of timber waits in the warehouse of',
    'the eastern pier until it opens again.',
  ],
  [
    'Fax page three: the customs desk moves to',
    'the passenger terminal next week, where',
    'travellers show their papers at the gate',
    'beside the ticket office of the ferries.',
  ],
];

let root: string;
let scratch: string;

/** Lines of text printed on a page, then rendered as a scanner would (`pdftoppm` format flag: -png, -jpeg, or none for PGM). */
async function render(lines: readonly string[], name: string, format: '-png' | '-jpeg' | '-pgm'): Promise<Buffer> {
  const pdf = join(scratch, `${name}.pdf`);
  await writeFile(pdf, buildPdf([lines.map((text) => ({ text, size: 14 }))]));
  const args = ['-r', String(DPI), '-gray', '-singlefile', ...(format === '-pgm' ? [] : [format])];
  execFileSync('pdftoppm', [...args, pdf, join(scratch, name)], { timeout: 30_000 });
  const extension = { '-png': 'png', '-jpeg': 'jpg', '-pgm': 'pgm' }[format];
  return readFile(join(scratch, `${name}.${extension}`));
}

async function ingest(dir: string, ingestConfig: ConfigInput['ingest'], name: string) {
  const db = join(root, `${name}.db`);
  const logs: string[] = [];
  const logger = { debug: (message: string) => void logs.push(message), info() {}, warn() {}, error() {} };
  const evident = await createEvident(
    loadConfig({ env: {}, cwd: root, flags: { db, ingest: ingestConfig, chunk: { size: 200, overlap: 0 } } }),
    { logger },
  );
  return { evident, logs, summary: await evident.ingestor.ingest([dir]) };
}

const outcome = (summary: IngestSummary, docId: string) => summary.outcomes.find((o) => o.docId === docId);
const ocrTempDirs = async () => (await readdir(process.env.TMPDIR!)).filter((name) => name.startsWith('evident-ocr-'));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'evident-images-'));
  scratch = join(root, 'scratch');
  await mkdir(scratch);
  process.env.TMPDIR = join(root, 'tmp');
  await mkdir(process.env.TMPDIR);
});

afterAll(async () => {
  delete process.env.TMPDIR;
  await rm(root, { recursive: true, force: true });
});

describeWith(ocrTools(), 'image files through OCR', () => {
  let docs: string;
  beforeAll(async () => {
    docs = join(root, 'docs');
    await mkdir(docs);
    await writeFile(join(docs, 'receipt.png'), await render(RECEIPT, 'receipt', '-png'));
    await writeFile(join(docs, 'lighthouse.JPG'), await render(PHOTO, 'photo', '-jpeg'));
    const pages = await Promise.all(FAX.map((lines, index) => render(lines, `fax-${index}`, '-pgm')));
    await writeFile(join(docs, 'fax.tiff'), buildTiff(pages.map(readPgm), DPI));
    // A PNG of a few hundred bytes that declares 10 billion pixels, and a real PNG cut after its first IDAT bytes.
    await writeFile(join(docs, 'bomb.png'), pngHeaderOnly(100_000, 100_000));
    await writeFile(join(docs, 'cut.png'), (await render(RECEIPT, 'cut', '-png')).subarray(0, 3000));
  }, 60_000);

  it('reads PNG, JPEG and every page of a TIFF on worker threads: searchable by their words, a TIFF page cited with its number', async () => {
    const { evident, summary, logs } = await ingest(docs, { workers: 2, workerMinDocuments: 1 }, 'images');
    try {
      expect(logs).toContain('ingest: documents are processed on worker threads');
      expect(outcome(summary, 'receipt.png')).toMatchObject({ status: 'added', pages: 1 });
      expect(outcome(summary, 'lighthouse.JPG')).toMatchObject({ status: 'added', pages: 1 });
      expect(outcome(summary, 'fax.tiff')).toMatchObject({ status: 'added', pages: 3 });

      const receipt = await evident.search.search('berth fee ferry Aurora', reader, { channels: ['bm25'] });
      expect(receipt.results[0]).toMatchObject({ chunk: { docId: 'receipt.png', page: 1 } });
      expect(receipt.results[0]?.chunk.text).toContain('Receipt for the berth fee of the ferry Aurora');
      const keeper = await evident.search.search('lighthouse keeper fog signal', reader, { channels: ['bm25'] });
      expect(keeper.results[0]?.chunk).toMatchObject({ docId: 'lighthouse.JPG', page: 1 });

      for (const [query, page, text] of [
        ['pilot boat dawn', 1, 'the pilot boat leaves at dawn'],
        ['crane quay repairs', 2, 'the crane on quay four'],
        ['customs desk passenger terminal', 3, 'the customs desk moves'],
      ] as const) {
        const found = await evident.search.search(query, reader, { channels: ['bm25'] });
        expect(found.results[0]?.chunk).toMatchObject({ docId: 'fax.tiff', page });
        expect(found.results[0]?.chunk.text).toContain(text);
      }
      expect(await ocrTempDirs()).toEqual([]);
    } finally {
      await evident.close();
    }
  }, 120_000);

  it('refuses a pixel bomb from its header and a cut image as corrupt, each alone and typed', async () => {
    const { evident, summary } = await ingest(docs, { workers: 0 }, 'bad');
    await evident.close();
    expect(outcome(summary, 'bomb.png')?.error).toMatchObject({
      code: 'file_limit_exceeded',
      message: expect.stringContaining(
        'bomb.png declares 100,000 × 100,000 pixels, over the ingest.ocr.maxImagePixels limit of 50,000,000 pixels.',
      ),
    });
    expect(outcome(summary, 'cut.png')?.error).toMatchObject({
      code: 'file_corrupt',
      message: expect.stringContaining('In cut.png, the image could not be decoded'),
    });
    expect(outcome(summary, 'receipt.png')).toMatchObject({ status: 'added' });
  }, 60_000);

  it('with a lower ingest.ocr.maxPages, refuses a TIFF with more pages before reading any', async () => {
    const { evident, summary } = await ingest(docs, { workers: 0, ocr: { maxPages: 2 } }, 'pages');
    await evident.close();
    expect(outcome(summary, 'fax.tiff')?.error).toMatchObject({
      code: 'file_limit_exceeded',
      message: expect.stringMatching(
        /^fax\.tiff has more than 2 pages, over the ingest\.ocr\.maxPages limit of 2 pages\./,
      ),
    });
  }, 60_000);

  it('stops tesseract past ingest.ocr.timeoutMs: ocr_timeout naming the page, no temp files left', async () => {
    const { evident, summary } = await ingest(docs, { workers: 0, ocr: { timeoutMs: 1 } }, 'timeout');
    await evident.close();
    expect(outcome(summary, 'fax.tiff')?.error).toMatchObject({
      code: 'ocr_timeout',
      message: expect.stringContaining('In fax.tiff, tesseract ran longer than ingest.ocr.timeoutMs (1 ms) on page 1.'),
    });
    expect(await ocrTempDirs()).toEqual([]);
  }, 60_000);

  it('stops between pages past ingest.maxDocumentSeconds: file_limit_exceeded naming the page it stopped at', async () => {
    // Each page is one tesseract run of well over 75 ms here, so 0.15 s runs out after page 1 or 2, never before page 1.
    const { evident, summary } = await ingest(docs, { workers: 0, maxDocumentSeconds: 0.15 }, 'deadline');
    await evident.close();
    expect(outcome(summary, 'fax.tiff')?.error).toMatchObject({
      code: 'file_limit_exceeded',
      message: expect.stringMatching(
        /^fax\.tiff took more than 0\.15 s to read, by page [23], over the ingest\.maxDocumentSeconds limit/,
      ),
    });
    expect(outcome(summary, 'receipt.png')).toMatchObject({ status: 'added' });
  }, 60_000);

  it('without tesseract on PATH or with OCR off, an image fails saying how to enable OCR; a bomb is still refused first', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(root, 'empty-bin');
    try {
      const { evident, summary } = await ingest(docs, { workers: 0 }, 'no-tools');
      await evident.close();
      expect(outcome(summary, 'receipt.png')?.error).toMatchObject({
        code: 'ocr_unavailable',
        message: expect.stringContaining('receipt.png is an image; install tesseract-ocr to read it.'),
      });
      expect(outcome(summary, 'receipt.png')?.error?.message).toContain(
        'apt-get install tesseract-ocr tesseract-ocr-eng',
      );
      expect(outcome(summary, 'bomb.png')?.error).toMatchObject({ code: 'file_limit_exceeded' });
    } finally {
      process.env.PATH = path;
    }
    const { evident, summary } = await ingest(docs, { workers: 0, ocr: { enabled: false } }, 'ocr-off');
    await evident.close();
    expect(outcome(summary, 'fax.tiff')?.error).toMatchObject({
      code: 'ocr_unavailable',
      message: expect.stringContaining(
        'fax.tiff is an image: its text is read by OCR, which ingest.ocr.enabled: false turns off.',
      ),
    });
  }, 60_000);
});
