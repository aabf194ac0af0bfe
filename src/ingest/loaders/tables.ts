import type { Block, ColumnType, TableData } from '../../domain/index.ts';
import { limitExceeded, type IngestLimits } from '../limits.ts';

type Cell = string | number | boolean | null;

const INTEGER = /^[+-]?(0|[1-9]\d*)$/;
const REAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;

/**
 * The narrowest type that every non-empty value of a column fits. Integers with leading zeros
 * (zip codes, ids such as `007`) stay text so no digit is lost.
 */
export function inferColumnType(values: readonly string[]): ColumnType {
  const present = values.filter((value) => value !== '');
  if (present.length === 0) return 'text';
  if (present.every((value) => INTEGER.test(value) && Number.isSafeInteger(Number(value)))) return 'integer';
  if (present.every((value) => REAL.test(value) && !/^[+-]?0\d/.test(value))) return 'real';
  if (present.every((value) => BOOLEAN.test(value))) return 'boolean';
  return 'text';
}

function toCell(value: string, type: ColumnType): Cell {
  if (value === '') return null;
  if (type === 'integer' || type === 'real') return Number(value);
  if (type === 'boolean') return value.toLowerCase() === 'true';
  return value;
}

/** Header names as given; an empty one becomes `column_<n>` and a repeated one gets a `_<k>` suffix, so SQL can hold them. */
function columnNames(header: readonly string[], width: number): string[] {
  const names: string[] = [];
  const taken = new Set<string>();
  for (let index = 0; index < width; index += 1) {
    const base = (header[index] ?? '').trim() || `column_${index + 1}`;
    let name = base;
    for (let k = 2; taken.has(name); k += 1) name = `${base}_${k}`;
    names.push(name);
    taken.add(name);
  }
  return names;
}

/**
 * Fails a file whose tables are over `ingest.maxTableCells` or `ingest.maxTableColumns` (`verb` says whether the
 * cells are there or only declared). Every cell becomes a typed SQL value and part of a row block, and neither
 * PostgreSQL (1,600) nor SQLite (2,000) holds a table of any width.
 */
export function checkTableShape(
  name: string,
  shape: { cells: number; columns: number },
  limits: IngestLimits,
  verb = 'has',
): void {
  if (shape.columns > limits.maxTableColumns) {
    throw limitExceeded(
      'maxTableColumns',
      name,
      `has a table ${shape.columns.toLocaleString('en-US')} columns wide`,
      limits,
    );
  }
  if (shape.cells > limits.maxTableCells) {
    throw limitExceeded('maxTableCells', name, `${verb} ${shape.cells.toLocaleString('en-US')} cells`, limits);
  }
}

/** The cells and the widest row of a grid. */
export function gridShape(grid: readonly (readonly unknown[])[]): { cells: number; columns: number } {
  let cells = 0;
  let columns = 0;
  for (const row of grid) {
    cells += row.length;
    if (row.length > columns) columns = row.length;
  }
  return { cells, columns };
}

export interface SheetBlocks {
  table: TableData;
  blocks: Block[];
}

/**
 * A grid of strings (first non-empty row = header) → a typed table, plus blocks that make it searchable:
 * a heading naming the table and its columns, then one `row` block per row (`col: value | col: value`).
 * Returns undefined for a grid without a header.
 */
export function gridToTable(title: string, grid: readonly (readonly string[])[]): SheetBlocks | undefined {
  const rows = grid.map((row) => row.map((cell) => cell.trim())).filter((row) => row.some((cell) => cell !== ''));
  const header = rows[0];
  if (!header) return undefined;
  const body = rows.slice(1);
  // A loop, not Math.max(...rows): spreading 150,000 rows as arguments overflows the stack.
  let width = header.length;
  for (const row of body) if (row.length > width) width = row.length;
  const names = columnNames(header, width);
  const types = names.map((_, index) => inferColumnType(body.map((row) => row[index] ?? '')));
  const table: TableData = {
    title,
    columns: names.map((name, index) => ({ name, type: types[index] ?? 'text' })),
    rows: body.map((row) => names.map((_, index) => toCell(row[index] ?? '', types[index] ?? 'text'))),
  };
  const blocks: Block[] = [{ kind: 'heading', level: 1, text: `${title} — columns: ${names.join(', ')}` }];
  for (const row of body) {
    const text = names
      .map((name, index) => [name, row[index] ?? ''] as const)
      .filter(([, value]) => value !== '')
      .map(([name, value]) => `${name}: ${value}`)
      .join(' | ');
    if (text) blocks.push({ kind: 'row', text, table: title });
  }
  return { table, blocks };
}
