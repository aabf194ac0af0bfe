import type { Block, CellBox, ColumnType, TableData } from '../../domain/index.ts';
import { isEmptyCell, numericColumn, parseCellNumber } from './cell-values.ts';
import type { FoundTable, GridRow } from './page-text.ts';

/** A detected PDF table as the store keeps it, plus the blocks that make it searchable. */
export interface PdfTable {
  table: TableData;
  /** A line naming the table and its columns, then one `row` block per row (header repeated), each with its page. */
  blocks: Block[];
}

const hasNumber = (row: GridRow): boolean =>
  row.cells.some((cell, index) => index > 0 && parseCellNumber(cell) !== undefined);
/** A row with a label and nothing else: under a header it names the section of rows after it (`Published`, `Ours`). */
const labelOnly = (row: GridRow): boolean => !isEmptyCell(row.cells[0] ?? '') && row.cells.slice(1).every(isEmptyCell);

/**
 * How many leading rows are header: the first, then (when the body has numbers) rows without any — a header set on
 * two lines or under a spanning group header — and a note row with no label (e.g. a size per column) right under it.
 */
export function headerRowCount(rows: readonly GridRow[]): number {
  let count = 1;
  const bodyHasNumbers = rows.slice(1).some(hasNumber);
  while (
    count < 3 &&
    count < rows.length - 2 &&
    bodyHasNumbers &&
    !hasNumber(rows[count]!) &&
    !labelOnly(rows[count]!) &&
    rows.slice(count + 1).some(hasNumber)
  )
    count += 1;
  return count;
}

/** A row right under the header with no label while every row below has one (e.g. each column's data set size). */
export function isHeaderNote(rows: readonly GridRow[], headerCount: number): boolean {
  const next = rows[headerCount];
  return (
    next !== undefined &&
    headerCount < rows.length - 2 &&
    next.cells[0] === '' &&
    rows.slice(headerCount + 1).every((row) => row.cells[0] !== '')
  );
}

function headerNames(header: readonly GridRow[], width: number): string[] {
  const taken = new Set<string>();
  return Array.from({ length: width }, (_, index) => {
    const parts: string[] = [];
    for (const row of header) {
      const text = row.cells[index] ?? '';
      if (!isEmptyCell(text) && parts.at(-1) !== text) parts.push(text);
    }
    const base = parts.join(' ') || `column_${index + 1}`;
    let name = base;
    for (let k = 2; taken.has(name.toLowerCase()); k += 1) name = `${base}_${k}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/**
 * PostgreSQL cuts identifiers at 63 bytes and its store cuts column names at 56: a joined header name is cut here
 * first (and kept unique), so both backends hold the same names and the row lines name the columns as stored.
 */
const MAX_NAME_BYTES = 50;

function boundNames(names: string[]): void {
  const taken = new Set<string>();
  names.forEach((name, index) => {
    let cut = name;
    while (Buffer.byteLength(cut, 'utf8') > MAX_NAME_BYTES) cut = cut.slice(0, -1);
    cut = cut.trimEnd();
    let unique = cut;
    for (let k = 2; taken.has(unique.toLowerCase()); k += 1) unique = `${cut}_${k}`;
    taken.add(unique.toLowerCase());
    names[index] = unique;
  });
}

/**
 * Section rows (a label alone over the rows after it) → a `Section` column before the others, so each row says which
 * group it is in (`Published` / `Ours`) and SQL can filter by it.
 */
function withSectionColumn(body: readonly GridRow[], names: readonly string[]): { body: GridRow[]; names: string[] } {
  let name = 'Section';
  for (let k = 2; names.some((taken) => taken.toLowerCase() === name.toLowerCase()); k += 1) name = `Section_${k}`;
  let section = '';
  const rows: GridRow[] = [];
  body.forEach((row, r) => {
    const next = body[r + 1];
    if (labelOnly(row) && next && !labelOnly(next)) section = row.cells[0]!;
    else rows.push({ page: row.page, cells: [section, ...row.cells], boxes: [undefined, ...(row.boxes ?? [])] });
  });
  return { body: rows, names: [name, ...names] };
}

/** A tenth of a point is finer than any mark on a screen. */
const roundBox = (box: CellBox): CellBox => box.map((value) => Math.round(value * 10) / 10) as CellBox;

/** `Table 1` from a caption, or undefined. */
export function captionLabel(caption: string | undefined): string | undefined {
  const match = caption ? /^Table\s+(\d{1,3}|[IVXL]{1,6})/i.exec(caption) : null;
  return match ? `Table ${match[1]}` : undefined;
}

/**
 * A found table → typed SQL table titled `<stem> / page <p> / Table <n>` (the caption's number, else the table's
 * order in the document). Numeric columns (one unit throughout) become numbers with the unit in their name.
 */
export function buildPdfTable(found: FoundTable, stem: string, ordinal: number): PdfTable | undefined {
  const width = found.columns.length;
  const headerCount = headerRowCount(found.rows);
  const header = found.rows.slice(0, headerCount);
  // A header with a gap or a figure in it means the rows were not read as the table is set: better no table.
  for (let index = 0; index < width; index += 1) {
    const text = header
      .map((row) => row.cells[index] ?? '')
      .filter((cell) => !isEmptyCell(cell))
      .join(' ');
    if ((text === '' && index > 0) || parseCellNumber(text) !== undefined) return undefined;
  }
  let names = headerNames(found.rows.slice(0, headerCount), width);
  // The note row stays out of the names (they are typed in SQL) and is said in the table's description.
  const note = isHeaderNote(found.rows, headerCount) ? found.rows[headerCount] : undefined;
  // A row of footnote marks only (`†`) is no row of data.
  let body = found.rows
    .slice(headerCount + (note ? 1 : 0))
    .filter((row) => row.cells.some((cell) => /[\p{L}\p{N}]/u.test(cell)));
  if (body.some((row, r) => labelOnly(row) && body[r + 1] && !labelOnly(body[r + 1]!))) {
    ({ body, names } = withSectionColumn(body, names));
  }
  const label = captionLabel(found.caption) ?? `table ${ordinal}`;
  const title = `${stem} / page ${found.page} / ${label}`;
  const types: ColumnType[] = [];
  const columnValues: (string | number | null)[][] = [];
  names.forEach((name, index) => {
    const texts = body.map((row) => row.cells[index] ?? '');
    const numeric = numericColumn(texts);
    if (numeric) {
      types.push(numeric.integer ? 'integer' : 'real');
      if (numeric.unit && !name.includes(numeric.unit)) names[index] = `${name} (${numeric.unit})`;
      columnValues.push(numeric.values);
    } else {
      types.push('text');
      columnValues.push(texts.map((text) => (isEmptyCell(text) ? null : text)));
    }
  });
  boundNames(names);
  const table: TableData = {
    title,
    columns: names.map((name, index) => ({ name, type: types[index]! })),
    rows: body.map((_, r) => names.map((__, c) => columnValues[c]![r] ?? null)),
    ...(found.caption ? { description: found.caption } : {}),
  };
  const noted = note
    ? `; under the header: ${names.flatMap((name, index) => (isEmptyCell(note.cells[index] ?? '') ? [] : [`${name} ${note.cells[index]}`])).join(', ')}`
    : '';
  // The lines `table_query` cites: `<title> — columns: …` and `<column>: <value> | …` with the values as stored.
  const blocks: Block[] = [
    { kind: 'text', text: `${found.caption ?? label} (page ${found.page})${noted}`, page: found.page },
    { kind: 'text', text: `${title} — columns: ${names.join(', ')}`, page: found.page },
  ];
  table.rows.forEach((values, r) => {
    const text = names
      .flatMap((name, c) => (values[c] === null || values[c] === undefined ? [] : [`${name}: ${String(values[c])}`]))
      .join(' | ');
    const cells = (body[r]!.boxes ?? []).filter(
      (box, c): box is CellBox => box !== undefined && values[c] !== null && values[c] !== undefined,
    );
    const placed = cells.length > 0 ? { cells: cells.map(roundBox) } : {};
    if (text) blocks.push({ kind: 'row', text, page: body[r]!.page, table: title, ...placed });
  });
  return { table, blocks };
}
