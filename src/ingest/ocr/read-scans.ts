import type { getDocumentProxy } from 'unpdf';
import type { OcrConfig } from '../../config/ocr-schema.ts';
import type { Block } from '../../domain/index.ts';
import { ocrPages } from './ocr-pages.ts';
import { scannedPages } from './scanned-pages.ts';

type DocumentProxy = Awaited<ReturnType<typeof getDocumentProxy>>;

/** The PDF loader's hook: the blocks of its scanned pages (of `textless`, 1-based), by page; none when OCR is off. */
export async function readScans(
  pdf: DocumentProxy,
  bytes: Buffer,
  name: string,
  textless: readonly number[],
  config: OcrConfig,
): Promise<Map<number, Block[]>> {
  if (!config.enabled || textless.length === 0) return new Map();
  return ocrPages({ bytes, name, pages: await scannedPages(pdf, textless), config });
}
