import { basename } from 'node:path';
import type { LoadedDocument } from '../../domain/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { BoundedDocument } from './bounded-document.ts';
import { fileStem } from './decode-text.ts';
import type { Loader } from './loader.ts';
import { ODS, openOpenDocument } from './odf-package.ts';
import { readOdfTable } from './odf-table.ts';
import { attr, childrenNamed } from './xml-tree.ts';

/**
 * ODS: every non-empty sheet becomes a SQL table and row blocks, as an XLSX sheet does (`<stem> / <sheet>` when the
 * file has several sheets, the stem alone otherwise). Cells read their typed values (`office:value`, dates as ISO
 * dates), not the formatted text, so `1,250.50 €` is stored as the number 1250.5. Repeated rows and columns are
 * built within the bounds (`readOdfTable`).
 */
export const odsLoader: Loader = {
  type: 'ods',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const { body } = openOpenDocument(bytes, path, limits, ODS);
    const doc = new BoundedDocument(basename(path), limits);
    const stem = fileStem(path);
    const sheets = childrenNamed(body, 'table');
    sheets.forEach((sheet, index) => {
      const title = sheets.length > 1 ? `${stem} / ${attr(sheet, 'name') || `Sheet${index + 1}`}` : stem;
      doc.table(title, readOdfTable(sheet, doc), 1);
    });
    return doc.result();
  },
};
