import { basename } from 'node:path';
import type { LoadedDocument } from '../../domain/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { BoundedDocument } from './bounded-document.ts';
import { fileStem } from './decode-text.ts';
import type { Loader } from './loader.ts';
import { metaTitle, ODT, openOpenDocument } from './odf-package.ts';
import { readOdfTable } from './odf-table.ts';
import { walkOdfText } from './odf-text.ts';
import { attr } from './xml-tree.ts';

/**
 * ODT: headings at their outline level, paragraphs, list items and tables in document order. A table becomes a SQL
 * table (`<stem> / <table name>`) and row blocks, its columns heading one level below the heading it sits under so
 * the section's heading path goes on. The title is the document's own (`meta.xml`), else its first heading.
 */
export const odtLoader: Loader = {
  type: 'odt',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const { pkg, body } = openOpenDocument(bytes, path, limits, ODT);
    const doc = new BoundedDocument(basename(path), limits);
    const stem = fileStem(path);
    let level = 0;
    let firstHeading: string | undefined;
    let tables = 0;
    walkOdfText(body, {
      heading(headingLevel, text) {
        level = headingLevel;
        firstHeading ??= text;
        doc.push({ kind: 'heading', level, text });
      },
      paragraph(text) {
        doc.push({ kind: 'text', text });
      },
      table(table) {
        tables += 1;
        const title = `${stem} / ${attr(table, 'name') || `table ${tables}`}`;
        doc.table(title, readOdfTable(table, doc), Math.min(level + 1, 6));
      },
    });
    return doc.result({ title: metaTitle(pkg) ?? firstHeading });
  },
};
