import { basename } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { LoadedDocument } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { INGEST_DEFAULTS, limitExceeded, type IngestLimits } from '../limits.ts';
import { decodeText, fileStem } from './decode-text.ts';
import type { Loader } from './loader.ts';
import { checkTableShape, gridShape, gridToTable } from './tables.ts';

/** The delimiter that occurs most in the first line (`,` `;` or tab), so European `;` files load too. */
function guessDelimiter(text: string, path: string): string {
  if (path.toLowerCase().endsWith('.tsv')) return '\t';
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0).replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((delimiter) => [delimiter, firstLine.split(delimiter).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

/**
 * The table's shape counted on the text, before csv-parse builds a string per cell: fields per record and in all,
 * quotes (RFC 4180) respected. A line of 25 million commas fits in 50 MB and would be 25 million strings.
 */
function precheckShape(text: string, delimiter: string, name: string, limits: IngestLimits): void {
  const separator = delimiter.charCodeAt(0);
  let cells = 0;
  let columns = 0;
  let fields = 1;
  let quoted = false;
  let empty = true;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      quoted = !quoted;
    } else if (!quoted && code === separator) {
      fields += 1;
    } else if (!quoted && code === 0x0a) {
      if (!empty) {
        cells += fields;
        if (fields > columns) columns = fields;
        if (columns > limits.maxTableColumns) break;
        if (cells > limits.maxTableCells) {
          throw limitExceeded(
            'maxTableCells',
            name,
            `has more than ${limits.maxTableCells.toLocaleString('en-US')} cells`,
            limits,
          );
        }
      }
      fields = 1;
      empty = true;
      continue;
    }
    if (code !== 0x0d) empty = false;
  }
  if (!empty) {
    cells += fields;
    if (fields > columns) columns = fields;
  }
  checkTableShape(name, { cells, columns }, limits);
}

/** CSV/TSV: one table (title = file stem) and a `row` block per record. */
export const csvLoader: Loader = {
  type: 'csv',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const text = decodeText(bytes, path);
    const delimiter = guessDelimiter(text, path);
    precheckShape(text, delimiter, basename(path), limits);
    let grid: string[][];
    try {
      grid = parse(text, {
        delimiter,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
      }) as string[][];
    } catch (cause) {
      throw new IngestError(
        'file_corrupt',
        `${basename(path)} is not a readable CSV file: ${(cause as Error).message}`,
        {
          cause,
          hint: 'Check the quoting of the line named above, or export the file again.',
          details: { path },
        },
      );
    }
    checkTableShape(basename(path), gridShape(grid), limits);
    const sheet = gridToTable(fileStem(path), grid);
    if (!sheet) return { blocks: [] };
    return { blocks: sheet.blocks, tables: [sheet.table] };
  },
};
