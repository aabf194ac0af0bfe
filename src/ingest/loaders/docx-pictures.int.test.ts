import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../../config/index.ts';
import type { Principal } from '../../domain/index.ts';
import { createEvident } from '../../evident.ts';
import { buildDocx } from '../../testing/docx-builder.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { pngHeaderOnly } from '../../testing/png-header.ts';
import { describeWith, ocrTools } from '../../testing/requirements.ts';
import { buildTiff, readPgm } from '../../testing/tiff-builder.ts';
import type { IngestSummary } from '../ingest-progress.ts';
import { INGEST_DEFAULTS } from '../limits.ts';
import { docxLoader } from './docx-loader.ts';

const reader: Principal = { id: 'reader', groups: [], roles: ['member'] };
const SCAN = [
  'Signed lease of berth seven to the Aurora line,',
  'for ten years from the first of April, at a rent',
  'of four thousand crowns a month, paid quarterly.',
];

let root: string;

/** Lines printed on a page and rendered to a grayscale PNG at `dpi`: a scan (150 dpi) or a thumbnail (10 dpi). */
async function png(lines: readonly string[], name: string, dpi: number): Promise<Buffer> {
  const pdf = join(root, `${name}.pdf`);
  await writeFile(pdf, buildPdf([lines.map((text) => ({ text, size: 14 }))]));
  execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-png', '-singlefile', pdf, join(root, name)], {
    timeout: 30_000,
  });
  return readFile(join(root, `${name}.png`));
}

async function ingest(dir: string, ingestConfig: ConfigInput['ingest'], name: string) {
  const db = join(root, `${name}.db`);
  const evident = await createEvident(loadConfig({ env: {}, cwd: root, flags: { db, ingest: ingestConfig } }));
  return { evident, summary: await evident.ingestor.ingest([dir]) };
}

const outcome = (summary: IngestSummary, docId: string) => summary.outcomes.find((o) => o.docId === docId);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'evident-docx-pictures-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeWith(ocrTools(), 'pictures in DOCX files through OCR', () => {
  let docs: string;
  let report: Buffer;
  beforeAll(async () => {
    docs = join(root, 'docs');
    await mkdir(docs);
    const scan = await png(SCAN, 'scan', 150);
    const logo = await png(['Harbour Board'], 'logo', 10);
    report = buildDocx([
      { heading: 1, text: 'Berth leases' },
      { picture: logo },
      'The signed lease follows as it was scanned.',
      { picture: scan },
      'The lease is renewed by a letter to the board.',
      // The same scan inside a sentence is an illustration of the text, not text of its own: not read.
      { text: 'The stamp of the board looks like this:', picture: scan },
    ]);
    await writeFile(join(docs, 'leases.docx'), report);
    await writeFile(join(docs, 'logo-only.docx'), buildDocx(['Minutes of the board.', { picture: logo }]));
    await writeFile(join(docs, 'bomb.docx'), buildDocx(['A report.', { picture: pngHeaderOnly(100_000, 100_000) }]));
  }, 60_000);

  it("puts a scanned page's text where the picture stands, in reading order; small and inline pictures are not read", async () => {
    const doc = await docxLoader.load(report, '/kb/leases.docx');
    expect(doc.blocks.map((block) => block.text)).toEqual([
      'Berth leases',
      'The signed lease follows as it was scanned.',
      expect.stringContaining('Signed lease of berth seven to the Aurora line'),
      'The lease is renewed by a letter to the board.',
      'The stamp of the board looks like this:',
    ]);
    expect(doc.blocks[2]?.text).toContain('of four thousand crowns a month, paid quarterly.');
  }, 60_000);

  it("through the ingestor: the scan's words are searchable in the DOCX; a pixel bomb fails it alone, typed", async () => {
    const { evident, summary } = await ingest(docs, { workers: 0 }, 'pictures');
    try {
      expect(outcome(summary, 'leases.docx')).toMatchObject({ status: 'added' });
      expect(outcome(summary, 'logo-only.docx')).toMatchObject({ status: 'added' });
      const found = await evident.search.search('lease berth seven rent crowns', reader, { channels: ['bm25'] });
      expect(found.results[0]?.chunk.docId).toBe('leases.docx');
      expect(found.results[0]?.chunk.text).toContain('four thousand crowns a month');
      expect(outcome(summary, 'bomb.docx')?.error).toMatchObject({
        code: 'file_limit_exceeded',
        message: expect.stringContaining(
          'In bomb.docx, picture 1 declares 100,000 × 100,000 pixels, over the ingest.ocr.maxImagePixels limit',
        ),
      });
    } finally {
      await evident.close();
    }
  }, 120_000);

  it("reads a TIFF picture's first page only, as Word shows it", async () => {
    const pages = await Promise.all(
      [['The first page of the scanned lease is shown.'], ['A second page Word never shows.']].map(async (lines, n) => {
        const pdf = join(root, `tiff-${n}.pdf`);
        await writeFile(pdf, buildPdf([lines.map((text) => ({ text, size: 14 }))]));
        execFileSync('pdftoppm', ['-r', '150', '-gray', '-singlefile', pdf, join(root, `tiff-${n}`)], {
          timeout: 30_000,
        });
        return readPgm(await readFile(join(root, `tiff-${n}.pgm`)));
      }),
    );
    // The builder stores every picture as a .png part; the loader tells a TIFF by its bytes.
    const docx = buildDocx(['A lease in two pages.', { picture: buildTiff(pages) }]);
    const text = (await docxLoader.load(docx, '/kb/tiff.docx')).blocks.map((block) => block.text).join(' ');
    expect(text).toContain('The first page of the scanned lease is shown.');
    expect(text).not.toContain('second page');
  }, 60_000);

  it('without tesseract, a DOCX with a picture to read fails saying so; one with only small pictures does not need it', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(root, 'empty-bin');
    try {
      await expect(docxLoader.load(report, '/kb/leases.docx')).rejects.toMatchObject({
        code: 'ocr_unavailable',
        message: 'leases.docx shows a picture that may hold text; install tesseract-ocr to read it.',
        hint: expect.stringContaining('or set ingest.ocr.enabled: false to ingest its text only'),
      });
      const logoOnly = await docxLoader.load(await readFile(join(docs, 'logo-only.docx')), '/kb/logo-only.docx');
      expect(logoOnly.blocks).toEqual([{ kind: 'text', text: 'Minutes of the board.' }]);
      // With OCR off, the pictures are not looked at: the text alone, as before.
      const off = { ...INGEST_DEFAULTS, ocr: { ...INGEST_DEFAULTS.ocr, enabled: false } };
      expect((await docxLoader.load(report, '/kb/leases.docx', off)).blocks).toHaveLength(4);
    } finally {
      process.env.PATH = path;
    }
  }, 60_000);
});
