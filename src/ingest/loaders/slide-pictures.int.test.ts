import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildOdf } from '../../testing/odf-builder.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { pngHeaderOnly } from '../../testing/png-header.ts';
import { buildPptx } from '../../testing/pptx-builder.ts';
import { describeWith, ocrTools } from '../../testing/requirements.ts';
import { INGEST_DEFAULTS } from '../limits.ts';
import { odpLoader } from './odp-loader.ts';
import { pptxLoader } from './pptx-loader.ts';

const SCAN = [
  'Signed lease of berth seven to the Aurora line,',
  'for ten years from the first of April, at a rent',
  'of four thousand crowns a month, paid quarterly.',
];
const OFF = { ...INGEST_DEFAULTS, ocr: { ...INGEST_DEFAULTS.ocr, enabled: false } };

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

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'evident-slide-pictures-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeWith(ocrTools(), 'pictures on slides through OCR', () => {
  let scan: Buffer;
  let logo: Buffer;
  let deck: Buffer;
  beforeAll(async () => {
    scan = await png(SCAN, 'scan', 150);
    logo = await png(['Harbour Board'], 'logo', 10);
    deck = buildPptx([
      { title: 'Berth leases', body: ['The signed lease follows as it was scanned.'], pictures: [logo] },
      { title: 'Signed lease', pictures: [scan] },
      // The same scan beside text illustrates it: not read.
      { title: 'Stamp', body: ['The stamp of the board looks like this.'], pictures: [scan] },
    ]);
  }, 60_000);

  it('reads the picture of a slide with no text of its own, at that slide; pictures beside text and small ones are not read', async () => {
    const doc = await pptxLoader.load(deck, '/kb/leases.pptx');
    expect(doc.blocks.map((block) => [block.page, block.text])).toEqual([
      [1, 'Berth leases'],
      [1, 'The signed lease follows as it was scanned.'],
      [2, 'Signed lease'],
      [2, expect.stringContaining('Signed lease of berth seven to the Aurora line')],
      [3, 'Stamp'],
      [3, 'The stamp of the board looks like this.'],
    ]);
    expect(doc.blocks[3]?.text).toContain('four thousand crowns a month');
    // With OCR off the pictures are not looked at.
    expect((await pptxLoader.load(deck, '/kb/leases.pptx', OFF)).blocks).toHaveLength(5);
  }, 60_000);

  it('reads an ODP picture frame the same way', async () => {
    const odp = buildOdf(
      'presentation',
      '<draw:page draw:name="p1"><draw:frame presentation:class="title"><draw:text-box><text:p>Signed lease</text:p></draw:text-box></draw:frame>' +
        '<draw:frame draw:name="Scan"><draw:image xlink:href="Pictures/scan.png" xlink:type="simple" xmlns:xlink="http://www.w3.org/1999/xlink"/></draw:frame></draw:page>',
      { extra: [{ path: 'Pictures/scan.png', data: scan, method: 'store' }] },
    );
    const doc = await odpLoader.load(odp, '/kb/leases.odp');
    expect(doc.blocks[1]).toMatchObject({ kind: 'text', page: 1, text: expect.stringContaining('berth seven') });
  }, 60_000);

  it('refuses a picture that declares more pixels than ingest.ocr.maxImagePixels, and says when tesseract is missing', async () => {
    const bomb = buildPptx([{ pictures: [pngHeaderOnly(100_000, 100_000)] }]);
    await expect(pptxLoader.load(bomb, '/kb/bomb.pptx')).rejects.toMatchObject({
      code: 'file_limit_exceeded',
      message: expect.stringContaining(
        'In bomb.pptx, the picture on slide 1 declares 100,000 × 100,000 pixels, over the ingest.ocr.maxImagePixels limit',
      ),
    });
    const path = process.env.PATH;
    process.env.PATH = join(root, 'empty-bin');
    try {
      await expect(pptxLoader.load(deck, '/kb/leases.pptx')).rejects.toMatchObject({
        code: 'ocr_unavailable',
        message: 'leases.pptx has a slide of pictures that may hold text; install tesseract-ocr to read it.',
        hint: expect.stringContaining('or set ingest.ocr.enabled: false to ingest its text only'),
      });
    } finally {
      process.env.PATH = path;
    }
  }, 60_000);
});
