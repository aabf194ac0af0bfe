import type { getDocumentProxy } from 'unpdf';
import type { OcrConfig } from '../../config/ocr-schema.ts';
import type { Block } from '../../domain/index.ts';
import { ocrToolsReady } from './ocr-availability.ts';
import { ocrPages } from './ocr-pages.ts';
import { scannedPages } from './scanned-pages.ts';

type DocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * A page with fewer characters than this may be a scan with a line set over it (a scanner's stamp, a page number):
 * two short lines. Only such pages have their images measured, so a document of text pages pays nothing.
 */
const SPARSE_PAGE_CHARS = 160;

/**
 * The PDF loader's hook: the blocks of its scanned pages, by page (1-based), given each page's characters of text;
 * none when OCR is off. A page without text that shows an image is a scan; so is a page with a little text whose
 * images cover most of it, read where the tools are installed (without them its text layer stands, as it did before
 * such pages were read, and the file does not fail for it) and kept when OCR finds more text than the layer has.
 */
export async function readScans(
  pdf: DocumentProxy,
  bytes: Buffer,
  name: string,
  pageChars: readonly number[],
  config: OcrConfig,
): Promise<Map<number, Block[]>> {
  const textless = pageChars.flatMap((chars, index) => (chars === 0 ? [index + 1] : []));
  const sparse = pageChars.flatMap((chars, index) => (chars > 0 && chars < SPARSE_PAGE_CHARS ? [index + 1] : []));
  if (!config.enabled || (textless.length === 0 && sparse.length === 0)) return new Map();
  let pages = await scannedPages(pdf, textless, sparse);
  if (pages.some((page) => page.hasText) && !(await ocrToolsReady(['tesseract', 'pdftoppm'], config, process.env)))
    pages = pages.filter((page) => !page.hasText);
  const read = await ocrPages({ bytes, name, pages, config });
  for (const page of pages) {
    if (!page.hasText) continue;
    const layer = pageChars[page.page - 1] ?? 0;
    const ocr = (read.get(page.page) ?? []).reduce((chars, block) => chars + block.text.length, 0);
    // The image holds text of its own only when OCR reads clearly more than the text layer has; otherwise (a slide's
    // title over a background picture) the text as typed is kept, exact where OCR may misread it.
    if (ocr < 2 * layer + 20) read.delete(page.page);
  }
  return read;
}
