import type { BoundedDocument } from './bounded-document.ts';
import { paragraphText } from './odf-text.ts';
import { attr, childrenNamed, type XmlElement } from './xml-tree.ts';

/** Containers of rows: header rows, row groups (outlines), plain row lists. */
const ROW_GROUPS = new Set(['table-header-rows', 'table-rows', 'table-row-group']);

/** A repeat count as written: a positive integer, anything else is one. */
function repeat(element: XmlElement, name: string): number {
  const value = Number(attr(element, name) ?? '1');
  return Number.isSafeInteger(value) && value > 0 ? value : 1;
}

/** A cell as a user reads its value: numbers, dates and booleans from their typed attributes, text otherwise. */
function cellText(cell: XmlElement): string {
  const type = attr(cell, 'value-type');
  if (type === 'float' || type === 'percentage' || type === 'currency') {
    const value = attr(cell, 'value');
    if (value !== undefined) return value;
  } else if (type === 'date') {
    const value = attr(cell, 'date-value');
    if (value !== undefined) return value.replace(/T00:00:00(\.0+)?$/, '');
  } else if (type === 'boolean') {
    const value = attr(cell, 'boolean-value');
    if (value !== undefined) return value;
  }
  return childrenNamed(cell, 'p')
    .map((paragraph) => paragraphText(paragraph).replace(/\s+/g, ' '))
    .filter((text) => text !== '')
    .join(' ');
}

function rowsOf(container: XmlElement, into: XmlElement[] = []): XmlElement[] {
  for (const child of container.children) {
    if (typeof child === 'string') continue;
    if (child.name === 'table-row') into.push(child);
    else if (ROW_GROUPS.has(child.name)) rowsOf(child, into);
  }
  return into;
}

/**
 * An OpenDocument table (`table:table`: a sheet, or a table in a text or on a slide) as a grid of cell text,
 * honouring `table:number-columns-repeated` and `table:number-rows-repeated` within the file's bounds. Spreadsheet
 * programs write the empty rest of a sheet as one row repeated a million times, of one cell repeated a thousand
 * times: empty rows and trailing empty cells are never built (a table drops them anyway). A repeat of content is
 * real data and is built — after its cells are counted against `ingest.maxTableCells` and its width against
 * `ingest.maxTableColumns`, so a few bytes asking for a billion copies fail typed instead of allocating them.
 */
export function readOdfTable(table: XmlElement, doc: BoundedDocument): string[][] {
  const grid: string[][] = [];
  for (const row of rowsOf(table)) {
    const runs: { text: string; count: number }[] = [];
    let width = 0;
    let filled = 0;
    for (const cell of row.children) {
      if (typeof cell === 'string' || (cell.name !== 'table-cell' && cell.name !== 'covered-table-cell')) continue;
      const count = repeat(cell, 'number-columns-repeated');
      // A covered cell lies under a merged one: it keeps its column, without the merged text again.
      const text = cell.name === 'covered-table-cell' ? '' : cellText(cell);
      runs.push({ text, count });
      width += count;
      if (text !== '') filled = width;
    }
    if (filled === 0) continue;
    const times = repeat(row, 'number-rows-repeated');
    doc.reserveCells(filled * times, filled);
    const cells: string[] = [];
    for (const run of runs) {
      for (let i = 0; i < run.count && cells.length < filled; i += 1) cells.push(run.text);
    }
    for (let i = 0; i < times; i += 1) grid.push(cells);
  }
  return grid;
}
