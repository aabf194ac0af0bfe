import { describe, expect, it } from 'vitest';
import { pngHeaderOnly } from '../../testing/png-header.ts';
import { INGEST_DEFAULTS } from '../limits.ts';
import { imageLoader } from './image-loader.ts';

// Everything here is decided from the header, before tesseract would run: no OCR tool is needed.
describe('imageLoader before OCR', () => {
  it('refuses bytes that are no PNG, JPEG or TIFF, whatever the name says, as file_corrupt', async () => {
    await expect(imageLoader.load(Buffer.from('Name,Amount\nA,1\n'), '/kb/table.png')).rejects.toMatchObject({
      code: 'file_corrupt',
      message: 'table.png is not a readable image (it is not a PNG, JPEG or TIFF image).',
    });
  });

  it('refuses a header that declares more pixels than ingest.ocr.maxImagePixels, naming the setting', async () => {
    await expect(imageLoader.load(pngHeaderOnly(100_000, 100_000), '/kb/bomb.png')).rejects.toMatchObject({
      code: 'file_limit_exceeded',
      details: { setting: 'ingest.ocr.maxImagePixels', limit: '50,000,000 pixels' },
    });
    const lower = { ...INGEST_DEFAULTS, ocr: { ...INGEST_DEFAULTS.ocr, maxImagePixels: 100_000 } };
    await expect(imageLoader.load(pngHeaderOnly(400, 400), '/kb/photo.png', lower)).rejects.toMatchObject({
      code: 'file_limit_exceeded',
      message: expect.stringContaining('photo.png declares 400 × 400 pixels'),
    });
  });

  it('with OCR off, fails with ocr_unavailable saying how to turn it on, never an empty document', async () => {
    const off = { ...INGEST_DEFAULTS, ocr: { ...INGEST_DEFAULTS.ocr, enabled: false } };
    await expect(imageLoader.load(pngHeaderOnly(400, 400), '/kb/scan.png', off)).rejects.toMatchObject({
      code: 'ocr_unavailable',
      hint: expect.stringContaining('Set ingest.ocr.enabled: true'),
    });
  });
});
