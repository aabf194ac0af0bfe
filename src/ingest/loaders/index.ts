import { extname } from 'node:path';
import { csvLoader } from './csv-loader.ts';
import { docxLoader } from './docx-loader.ts';
import { htmlLoader } from './html-loader.ts';
import type { Loader } from './loader.ts';
import { markdownLoader } from './markdown-loader.ts';
import { pdfLoader } from './pdf-loader.ts';
import { textLoader } from './text-loader.ts';
import { xlsxLoader } from './xlsx-loader.ts';

export type { Loader } from './loader.ts';
export { decodeText } from './decode-text.ts';
export { htmlToDocument } from './html-blocks.ts';

const BY_EXTENSION: Readonly<Record<string, Loader>> = {
  '.pdf': pdfLoader,
  '.md': markdownLoader,
  '.markdown': markdownLoader,
  '.html': htmlLoader,
  '.htm': htmlLoader,
  '.xhtml': htmlLoader,
  '.docx': docxLoader,
  '.txt': textLoader,
  '.text': textLoader,
  '.log': textLoader,
  '.csv': csvLoader,
  '.tsv': csvLoader,
  '.xlsx': xlsxLoader,
};

/** Extensions Evident can ingest, with their dot, lower case. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.freeze(Object.keys(BY_EXTENSION));

/** The loader for a file, chosen by its extension (case-insensitive), or undefined if the type is not supported. */
export function loaderFor(path: string): Loader | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}
