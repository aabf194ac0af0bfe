import { basename } from 'node:path';
import mammoth from 'mammoth';
import type { LoadedDocument } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { INGEST_DEFAULTS, limitExceeded, type IngestLimits } from '../limits.ts';
import { DocxPictures } from './docx-pictures.ts';
import { htmlToDocument } from './html-blocks.ts';
import type { Loader } from './loader.ts';
import { scanXml } from './xml-scan.ts';
import { readZipParts } from './zip-parts.ts';

const XML_PART = /\.(xml|rels)$/i;

// With OCR off, pictures give no text; not reading them keeps mammoth from inflating and base64-encoding each one.
const noImages = mammoth.images.imgElement(async () => ({ src: '' }));

/**
 * DOCX: converted to HTML by mammoth (Word heading styles → h1–h6, tables → <table>), then read as HTML; a picture
 * that stands alone in its paragraph (a scanned page) is read by OCR in its place (`docx-pictures.ts`). mammoth
 * holds the whole document tree at ≈ 2 KB per XML element, so the zip and its XML are measured first (expansion,
 * elements, nesting, text) and a file over a bound fails before mammoth sees it.
 */
export const docxLoader: Loader = {
  type: 'docx',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const name = basename(path);
    const corrupt = (why?: string, cause?: unknown) =>
      new IngestError('file_corrupt', `${name} is not a readable .docx document${why ? ` (${why})` : ''}.`, {
        ...(cause === undefined ? {} : { cause }),
        hint: 'Open it in a word processor and save it again as .docx (Word 2007 or later).',
        details: { path },
      });
    const parts = readZipParts(bytes, path, limits, (entry) => XML_PART.test(entry), corrupt);
    const budget = { elements: 0 };
    let chars = 0;
    for (const [entry, xml] of parts) {
      // Text runs (`w:t`, and the `t` of drawings and equations) in the document's own parts.
      scanXml(
        xml,
        name,
        limits,
        budget,
        entry.startsWith('word/')
          ? (tag) => {
              if (!tag.is('t')) return;
              chars += tag.textLength();
              if (chars > limits.maxDocumentChars) {
                throw limitExceeded(
                  'maxDocumentChars',
                  name,
                  `holds more than ${limits.maxDocumentChars.toLocaleString('en-US')} characters of text`,
                  limits,
                );
              }
            }
          : undefined,
      );
    }
    parts.clear();
    let html: string;
    const pictures = limits.ocr.enabled ? new DocxPictures(name, limits) : undefined;
    try {
      html = (await mammoth.convertToHtml({ buffer: bytes }, { convertImage: pictures?.convertImage ?? noImages }))
        .value;
    } catch (cause) {
      throw corrupt(undefined, cause);
    }
    return htmlToDocument(pictures ? await pictures.readInto(html) : html, name, limits);
  },
};
