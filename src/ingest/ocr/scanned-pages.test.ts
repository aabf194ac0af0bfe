import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { buildImagePdf } from '../../testing/image-pdf-builder.ts';
import { whitePng } from '../../testing/png-header.ts';
import { scannedPages } from './scanned-pages.ts';

const scanned = async (pdf: Buffer, textless: number[], sparse: number[]) => {
  const doc = await getDocumentProxy(new Uint8Array(pdf), { verbosity: 0 });
  try {
    return (await scannedPages(doc, textless, sparse)).map(({ page, hasText }) => ({ page, hasText }));
  } finally {
    await doc.destroy();
  }
};

describe('scannedPages', () => {
  const page = whitePng(170, 220);

  it('takes a page without text that shows any image as a scan, and a blank page as nothing', async () => {
    const pdf = buildImagePdf([{ png: page, dpi: 20 }, { text: [] }, { text: [], logo: page }]);
    expect(await scanned(pdf, [1, 2, 3], [])).toEqual([
      { page: 1, hasText: false },
      { page: 3, hasText: false },
    ]);
  });

  it('takes a page with a stamp over a page-sized image as a scan, and a short page with a logo as text', async () => {
    const pdf = buildImagePdf([
      { png: page, dpi: 20, stamp: 'Scanned 2026-12-05, page 1' },
      { text: ['Annual report'], logo: page },
    ]);
    expect(await scanned(pdf, [], [1, 2])).toEqual([{ page: 1, hasText: true }]);
  });
});
