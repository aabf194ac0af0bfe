import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDocx } from '../../testing/docx-builder.ts';
import { pngHeaderOnly, whitePng } from '../../testing/png-header.ts';
import { docxLoader } from './docx-loader.ts';

// With PATH pointing at an empty folder, any attempt to run tesseract would show as ocr_unavailable.
describe('pictures in a DOCX, decided before OCR runs', () => {
  let path: string | undefined;
  let empty: string;
  beforeEach(async () => {
    path = process.env.PATH;
    empty = await mkdtemp(join(tmpdir(), 'evident-no-tools-'));
    process.env.PATH = empty;
  });
  afterEach(async () => {
    process.env.PATH = path;
    await rm(empty, { recursive: true, force: true });
  });

  it('does not look for OCR for small pictures, or for a large one inside a sentence', async () => {
    const docx = buildDocx([
      'Minutes of the board.',
      { picture: whitePng(120, 60) },
      { text: 'The site plan:', picture: whitePng(900, 900) },
    ]);
    expect((await docxLoader.load(docx, '/kb/minutes.docx')).blocks).toEqual([
      { kind: 'text', text: 'Minutes of the board.' },
      { kind: 'text', text: 'The site plan:' },
    ]);
  });

  it('needs OCR for a large picture that stands alone, and says so when tesseract is missing', async () => {
    const docx = buildDocx(['Cover letter.', { picture: whitePng(900, 900) }, { picture: whitePng(900, 900) }]);
    await expect(docxLoader.load(docx, '/kb/scans.docx')).rejects.toMatchObject({
      code: 'ocr_unavailable',
      message: 'scans.docx shows 2 pictures that may hold text; install tesseract-ocr to read them.',
    });
  });

  it('refuses a picture whose header declares more than ingest.ocr.maxImagePixels before looking for OCR', async () => {
    const docx = buildDocx(['A report.', { picture: pngHeaderOnly(100_000, 100_000) }]);
    await expect(docxLoader.load(docx, '/kb/bomb.docx')).rejects.toMatchObject({
      code: 'file_limit_exceeded',
      message: expect.stringContaining('In bomb.docx, picture 1 declares 100,000 × 100,000 pixels'),
    });
  });
});
