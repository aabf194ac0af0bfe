import mammoth from 'mammoth';
import { IngestLimitError } from '../../errors/index.ts';
import { envNameOf } from '../../config/env-vars.ts';
import type { IngestLimits } from '../limits.ts';
import { checkImageBounds, type ImageHeader, ocrImages, ocrTextBlocks, readImageHeader } from '../ocr/index.ts';

/**
 * Smaller pictures are icons, logos and signatures, not pages or screenshots of text: they are not read (a page
 * scanned at 100 dpi is 850 × 1,100 pixels; a screenshot of a small table about 800 × 500).
 */
const MIN_PIXELS = 400_000;
const MIN_SIDE = 200;
const PICTURE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/tiff']);
// mammoth escapes the document's text and attributes, so only its own <img> for a picture can match.
const PLACEHOLDER = /<img [^>]*?src="evident-ocr:(\d+)"[^>]*>/g;
/** A paragraph of mammoth's HTML (paragraphs never nest there). */
const PARAGRAPH = /<p(?: [^>]*)?>(.*?)<\/p>/gs;

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The pictures of a DOCX that may hold text: a scanned page pasted into a report, a screenshot of a table. mammoth
 * marks each picture large enough to hold text with a placeholder; after the conversion, a picture that stands alone
 * in its paragraph (the document has no text there) is read by OCR and its text takes the paragraph's place, in
 * reading order. Pictures inside a sentence and small ones are left alone, and a document without pictures pays
 * nothing. The pictures read are bounded like a PDF's scans: `ingest.ocr.maxPages` pictures, `maxImagePixels` each
 * (from the header, before decoding), `timeoutMs` per picture and `maxDocumentSeconds` in all.
 */
export class DocxPictures {
  private readonly pictures: { bytes: Buffer; header: ImageHeader }[] = [];

  constructor(
    private readonly name: string,
    private readonly limits: IngestLimits,
  ) {}

  /** mammoth's image converter: a picture that may hold text becomes `<img src="evident-ocr:N" />`. */
  readonly convertImage: ReturnType<typeof mammoth.images.imgElement> = mammoth.images.imgElement(async (image) => {
    if (!PICTURE_TYPES.has(image.contentType)) return { src: '' };
    const bytes = await image.readAsBuffer();
    const header = readImageHeader(bytes, 1);
    // A picture Word could not show either (an unreadable header) has no text to give.
    if ('unreadable' in header) return { src: '' };
    // Word shows a TIFF's first page only.
    const first = header.frames.slice(0, 1);
    const [{ width, height } = { width: 0, height: 0 }] = first;
    if (width * height < MIN_PIXELS || Math.min(width, height) < MIN_SIDE) return { src: '' };
    this.pictures.push({ bytes, header: { format: header.format, frames: first } });
    return { src: `evident-ocr:${this.pictures.length - 1}` };
  });

  /** mammoth's HTML with the text of every picture that stands alone in its paragraph in that paragraph's place. */
  async readInto(html: string): Promise<string> {
    if (this.pictures.length === 0) return html;
    const alone: number[] = [];
    for (const [, inner = ''] of html.matchAll(PARAGRAPH)) {
      const indexes = [...inner.matchAll(PLACEHOLDER)].map((match) => Number(match[1]));
      if (indexes.length > 0 && inner.replace(/<[^>]*>/g, '').trim() === '') alone.push(...indexes);
    }
    const texts = await this.read(alone);
    return html
      .replace(PARAGRAPH, (paragraph, inner: string) => {
        const indexes = [...inner.matchAll(PLACEHOLDER)].map((match) => Number(match[1]));
        const read = indexes.flatMap((index) => texts.get(index) ?? []);
        if (indexes.length === 0 || !indexes.every((index) => texts.has(index))) return paragraph;
        return read.map((text) => `<p>${escapeHtml(text)}</p>`).join('');
      })
      .replace(PLACEHOLDER, '');
  }

  /** The OCR text of each picture in `indexes`, as paragraphs, by picture. */
  private async read(indexes: readonly number[]): Promise<Map<number, string[]>> {
    const { name, limits } = this;
    const texts = new Map<number, string[]>();
    if (indexes.length === 0) return texts;
    const { ocr } = limits;
    if (indexes.length > ocr.maxPages) {
      throw new IngestLimitError(name, `shows ${indexes.length.toLocaleString('en-US')} pictures to read by OCR`, {
        setting: 'ingest.ocr.maxPages',
        env: envNameOf(['ingest', 'ocr', 'maxPages']),
        limit: `${ocr.maxPages.toLocaleString('en-US')} pages`,
      });
    }
    const images = indexes.map((index, order) => {
      const picture = this.pictures[index]!;
      checkImageBounds(`In ${name}, picture ${order + 1}`, picture.header, ocr);
      return { ...picture, label: () => `picture ${order + 1}` };
    });
    const many = indexes.length > 1;
    const read = await ocrImages({
      name,
      need: {
        subject: `${name} shows ${many ? `${indexes.length} pictures` : 'a picture'} that may hold text`,
        them: many ? 'them' : 'it',
        orElse: 'set ingest.ocr.enabled: false to ingest its text only',
        details: { pictures: indexes.length },
      },
      images,
      limits,
      // A picture tesseract cannot decode shows nothing in Word either: the document's text is still read.
      unreadable: 'skip',
    });
    // tesseract's paragraphs, mended as a scan's are; a DOCX has no pages, so the blocks' page is not kept.
    for (const [order, index] of indexes.entries()) {
      const paragraphs = ocrTextBlocks(read[order]?.[0] ?? '', 1);
      texts.set(
        index,
        paragraphs.map((block) => block.text),
      );
    }
    return texts;
  }
}
