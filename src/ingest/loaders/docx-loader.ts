import { basename } from 'node:path';
import mammoth from 'mammoth';
import type { LoadedDocument } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { htmlToDocument } from './html-blocks.ts';
import type { Loader } from './loader.ts';

/** DOCX: converted to HTML by mammoth (Word heading styles → h1–h6, tables → <table>), then read as HTML. */
export const docxLoader: Loader = {
  type: 'docx',
  async load(bytes: Buffer, path: string): Promise<LoadedDocument> {
    let html: string;
    try {
      html = (await mammoth.convertToHtml({ buffer: bytes })).value;
    } catch (cause) {
      throw new IngestError('file_corrupt', `${basename(path)} is not a readable .docx document.`, {
        cause,
        hint: 'Open it in a word processor and save it again as .docx (Word 2007 or later).',
        details: { path },
      });
    }
    return htmlToDocument(html);
  },
};
