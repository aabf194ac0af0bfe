import { basename } from 'node:path';
import * as XLSX from 'xlsx';
import type { Block, LoadedDocument, TableData } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../limits.ts';
import { fileStem } from './decode-text.ts';
import type { Loader } from './loader.ts';
import { checkTableShape, gridToTable } from './tables.ts';
import { attribute, scanXml } from './xml-scan.ts';
import { readZipParts } from './zip-parts.ts';

function corrupt(path: string, cause?: unknown, why?: string): IngestError {
  return new IngestError(
    'file_corrupt',
    `${basename(path)} is not a readable .xlsx workbook${why ? ` (${why})` : ''}.`,
    {
      ...(cause === undefined ? {} : { cause }),
      hint: 'Open it in a spreadsheet program and save it again as .xlsx.',
      details: { path },
    },
  );
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

const CELL_REF = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/i;

/** `B3` → its 1-based column and row, or undefined for anything else. */
function cellAt(ref: string): { col: number; row: number } | undefined {
  const match = CELL_REF.exec(ref.trim());
  if (!match?.[1] || !match[2]) return undefined;
  let col = 0;
  for (const letter of match[1].toUpperCase()) col = col * 26 + (letter.charCodeAt(0) - 64);
  return { col, row: Number(match[2]) };
}

/** The shape of a range as written (`A1:XFD1048576`), or undefined when it cannot be read (the parser decides then). */
function rangeShape(ref: string): { rows: number; cols: number } | undefined {
  const [first = '', last = first] = ref.split(':');
  const from = cellAt(first);
  const to = cellAt(last);
  if (!from || !to) return undefined;
  return { rows: Math.abs(to.row - from.row) + 1, cols: Math.abs(to.col - from.col) + 1 };
}

/**
 * Before SheetJS builds anything: the zip's expansion, the XML's elements and nesting, the cells written and the
 * ranges the sheets declare. SheetJS walks a sheet's whole declared range, so a 1.5 KB file declaring A1:XFD1048576
 * (17 billion cells) must be refused here, not after.
 */
function precheck(bytes: Buffer, path: string, limits: IngestLimits): void {
  const name = basename(path);
  const parts = readZipParts(
    bytes,
    path,
    limits,
    (entry) => /\.(xml|rels)$/i.test(entry),
    (why, cause) => corrupt(path, cause, why),
  );
  const budget = { elements: 0 };
  let cells = 0;
  let declared = 0;
  for (const xml of parts.values()) {
    scanXml(xml, name, limits, budget, (tag) => {
      if (tag.is('c')) {
        cells += 1;
      } else if (tag.is('dimension')) {
        const shape = rangeShape(attribute(tag.raw(), 'ref') ?? '');
        if (!shape) return;
        checkTableShape(
          name,
          { cells: shape.rows * shape.cols, columns: shape.cols },
          limits,
          'declares a sheet range of',
        );
        declared += shape.rows * shape.cols;
      }
    });
  }
  checkTableShape(
    name,
    { cells: Math.max(cells, declared), columns: 0 },
    limits,
    cells >= declared ? 'has' : 'declares sheet ranges of',
  );
}

/** XLSX: every non-empty sheet becomes a table (`stem / sheet` when the workbook has several sheets). */
export const xlsxLoader: Loader = {
  type: 'xlsx',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    // SheetJS reads almost any bytes as *some* format; an .xlsx must at least be a zip.
    if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) throw corrupt(path);
    precheck(bytes, path, limits);
    let workbook: XLSX.WorkBook;
    try {
      workbook = XLSX.read(bytes, { type: 'buffer', cellDates: true, dense: true });
    } catch (cause) {
      throw corrupt(path, cause);
    }
    if (workbook.SheetNames.length === 0) throw corrupt(path);
    const name = basename(path);
    const stem = fileStem(path);
    const several = workbook.SheetNames.length > 1;
    const blocks: Block[] = [];
    const tables: TableData[] = [];
    let cells = 0;
    for (const sheetName of workbook.SheetNames) {
      const sheet = workbook.Sheets[sheetName];
      if (!sheet) continue;
      // The range SheetJS will walk, as it computed it (from the cells when the sheet declares none).
      const shape = rangeShape(sheet['!ref'] ?? '');
      if (shape) {
        cells += shape.rows * shape.cols;
        checkTableShape(name, { cells, columns: shape.cols }, limits, 'has sheet ranges of');
      }
      let raw: unknown[][];
      try {
        raw = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null, blankrows: false });
      } catch (cause) {
        throw corrupt(path, cause);
      }
      const grid = raw.map((row) => (Array.isArray(row) ? row.map(cellText) : []));
      const result = gridToTable(several ? `${stem} / ${sheetName}` : stem, grid);
      if (!result) continue;
      tables.push(result.table);
      for (const block of result.blocks) blocks.push(block);
    }
    return tables.length > 0 ? { blocks, tables } : { blocks: [] };
  },
};
