import { basename } from 'node:path';
import * as XLSX from 'xlsx';
import type { Block, LoadedDocument, TableData } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { fileStem } from './decode-text.ts';
import type { Loader } from './loader.ts';
import { gridToTable } from './tables.ts';

function corrupt(path: string, cause?: unknown): IngestError {
  return new IngestError('file_corrupt', `${basename(path)} is not a readable .xlsx workbook.`, {
    cause,
    hint: 'Open it in a spreadsheet program and save it again as .xlsx.',
    details: { path },
  });
}

/** A cell as the text a user sees: dates as ISO dates, numbers without locale formatting. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/** XLSX: every non-empty sheet becomes a table (`stem / sheet` when the workbook has several sheets). */
export const xlsxLoader: Loader = {
  type: 'xlsx',
  async load(bytes: Buffer, path: string): Promise<LoadedDocument> {
    // SheetJS reads almost any bytes as *some* format; an .xlsx must at least be a zip.
    if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) throw corrupt(path);
    let workbook: XLSX.WorkBook;
    try {
      workbook = XLSX.read(bytes, { type: 'buffer', cellDates: true, dense: true });
    } catch (cause) {
      throw corrupt(path, cause);
    }
    if (workbook.SheetNames.length === 0) throw corrupt(path);
    const stem = fileStem(path);
    const several = workbook.SheetNames.length > 1;
    const blocks: Block[] = [];
    const tables: TableData[] = [];
    for (const sheetName of workbook.SheetNames) {
      const sheet = workbook.Sheets[sheetName];
      if (!sheet) continue;
      const raw = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: false });
      const grid = raw.map((row) => (Array.isArray(row) ? row.map(cellText) : []));
      const result = gridToTable(several ? `${stem} / ${sheetName}` : stem, grid);
      if (!result) continue;
      tables.push(result.table);
      blocks.push(...result.blocks);
    }
    return tables.length > 0 ? { blocks, tables } : { blocks: [] };
  },
};
