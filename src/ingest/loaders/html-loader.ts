import { basename } from 'node:path';
import type { LoadedDocument } from '../../domain/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { decodeText } from './decode-text.ts';
import { htmlToDocument } from './html-blocks.ts';
import type { Loader } from './loader.ts';

/** HTML: the main text without navigation and scripts; `<table>` rows become `row` blocks. */
export const htmlLoader: Loader = {
  type: 'html',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    return htmlToDocument(decodeText(bytes, path), basename(path), limits);
  },
};
