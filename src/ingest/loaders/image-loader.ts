import { basename } from 'node:path';
import type { LoadedDocument } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { checkImageBounds, ocrImages, ocrTextBlocks, readImageHeader } from '../ocr/index.ts';
import type { Loader } from './loader.ts';

/**
 * PNG, JPEG and TIFF images of text, read by OCR: every page of a multi-page TIFF is a page of the document, so its
 * text is cited with its page number. The header is read and bounded (pixels per page, pages) before tesseract
 * decodes anything; an image that cannot be read, or a machine without OCR, fails the file with a typed error, never
 * an empty document.
 */
export const imageLoader: Loader = {
  type: 'image',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const name = basename(path);
    const header = readImageHeader(bytes, limits.ocr.maxPages);
    if ('unreadable' in header) {
      throw new IngestError('file_corrupt', `${name} is not a readable image (${header.unreadable}).`, {
        hint: 'Open it in an image viewer and save it again as PNG, JPEG or TIFF, then ingest it again.',
        details: { path },
      });
    }
    checkImageBounds(name, header, limits.ocr);
    if (!limits.ocr.enabled) {
      throw new IngestError(
        'ocr_unavailable',
        `${name} is an image: its text is read by OCR, which ingest.ocr.enabled: false turns off.`,
        {
          hint: 'Set ingest.ocr.enabled: true (with tesseract-ocr installed) to ingest it, or leave it out.',
          details: { path },
        },
      );
    }
    const pages = header.frames.length;
    const [frames = []] = await ocrImages({
      name,
      need: { subject: `${name} is an image`, them: 'it', orElse: 'leave it out', details: { path } },
      images: [{ bytes, header, label: (frame) => (pages > 1 ? `page ${frame + 1}` : 'the image') }],
      limits,
      unreadable: 'fail',
    });
    return { blocks: frames.flatMap((text, index) => ocrTextBlocks(text, index + 1)), pageCount: pages };
  },
};
