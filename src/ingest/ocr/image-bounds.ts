import type { OcrConfig } from '../../config/ocr-schema.ts';
import { envNameOf } from '../../config/env-vars.ts';
import { IngestLimitError } from '../../errors/index.ts';
import type { ImageHeader } from './image-header.ts';

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * Refuses, before any pixel is decoded, an image whose header declares more pixels in one frame than
 * `ingest.ocr.maxImagePixels` (a few hundred bytes of PNG can declare 100,000 × 100,000 pixels: 10 GB once decoded)
 * or more frames than `ingest.ocr.maxPages`. `what` names the image in the message: `scan.tif`, `In report.docx, picture 2`.
 */
export function checkImageBounds(what: string, header: ImageHeader, config: OcrConfig): void {
  if (header.frames.length > config.maxPages) {
    throw new IngestLimitError(what, `has more than ${count(config.maxPages)} pages`, {
      setting: 'ingest.ocr.maxPages',
      env: envNameOf(['ingest', 'ocr', 'maxPages']),
      limit: `${count(config.maxPages)} pages`,
    });
  }
  header.frames.forEach(({ width, height }, index) => {
    if (width * height <= config.maxImagePixels) return;
    const page = header.frames.length > 1 ? ` on page ${index + 1}` : '';
    throw new IngestLimitError(what, `declares ${count(width)} × ${count(height)} pixels${page}`, {
      setting: 'ingest.ocr.maxImagePixels',
      env: envNameOf(['ingest', 'ocr', 'maxImagePixels']),
      limit: `${count(config.maxImagePixels)} pixels`,
    });
  });
}
