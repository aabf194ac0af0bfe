import { extname } from 'node:path';
import type { Loader } from './loader.ts';

export type { Loader } from './loader.ts';
export { decodeText } from './decode-text.ts';

/**
 * A loader whose module (and the parser it wraps: pdf.js, mammoth, xlsx, a CSV or YAML parser, htmlparser2) is
 * imported the first time a file of its type is read, so a process that reads none never loads it.
 */
function lazyLoader(type: string, load: () => Promise<Loader>): Loader {
  let loaded: Promise<Loader> | undefined;
  return {
    type,
    load: async (bytes, path, limits) => (await (loaded ??= load())).load(bytes, path, limits),
  };
}

const pdfLoader = lazyLoader('pdf', async () => (await import('./pdf-loader.ts')).pdfLoader);
const markdownLoader = lazyLoader('markdown', async () => (await import('./markdown-loader.ts')).markdownLoader);
const htmlLoader = lazyLoader('html', async () => (await import('./html-loader.ts')).htmlLoader);
const docxLoader = lazyLoader('docx', async () => (await import('./docx-loader.ts')).docxLoader);
const textLoader = lazyLoader('text', async () => (await import('./text-loader.ts')).textLoader);
const csvLoader = lazyLoader('csv', async () => (await import('./csv-loader.ts')).csvLoader);
const xlsxLoader = lazyLoader('xlsx', async () => (await import('./xlsx-loader.ts')).xlsxLoader);
const emlLoader = lazyLoader('email', async () => (await import('./mail/eml-loader.ts')).emlLoader);
const mboxLoader = lazyLoader('mbox', async () => (await import('./mail/mbox-loader.ts')).mboxLoader);
const msgLoader = lazyLoader('email', async () => (await import('./mail/msg-loader.ts')).msgLoader);
const imageLoader = lazyLoader('image', async () => (await import('./image-loader.ts')).imageLoader);
const pptxLoader = lazyLoader('pptx', async () => (await import('./pptx-loader.ts')).pptxLoader);
const odtLoader = lazyLoader('odt', async () => (await import('./odt-loader.ts')).odtLoader);
const odsLoader = lazyLoader('ods', async () => (await import('./ods-loader.ts')).odsLoader);
const odpLoader = lazyLoader('odp', async () => (await import('./odp-loader.ts')).odpLoader);

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
  '.png': imageLoader,
  '.jpg': imageLoader,
  '.jpeg': imageLoader,
  '.tif': imageLoader,
  '.tiff': imageLoader,
  '.pptx': pptxLoader,
  '.odt': odtLoader,
  '.ods': odsLoader,
  '.odp': odpLoader,
  '.eml': emlLoader,
  '.mbox': mboxLoader,
  '.msg': msgLoader,
};

/** Extensions Evident can ingest, with their dot, lower case. */
export const SUPPORTED_EXTENSIONS: readonly string[] = Object.freeze(Object.keys(BY_EXTENSION));

/** The loader for a file, chosen by its extension (case-insensitive), or undefined if the type is not supported. */
export function loaderFor(path: string): Loader | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}
