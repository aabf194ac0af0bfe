import type { CellBox } from '../../domain/index.ts';
import type { ColumnSpan, FoundTable, GridRow, PageTextItem, RowCell, TableBox, TextRow } from './page-text.ts';
import { columnRows, pageLayout, type PageLayout } from './page-gutter.ts';
import { CAPTION, captionNear } from './table-captions.ts';

/** A cell longer than this is prose: tables hold short values (a false table is worse than a missed one). */
const MAX_CELL_CHARS = 48;
const MAX_CELL_WORDS = 8;
const MIN_COLUMNS = 3;
const MIN_ROWS = 3;
/** Rows further apart than this many font sizes do not belong to one table. */
const MAX_ROW_GAP = 2.2;

/** Five or more words, three of them lowercase: a run of a sentence, not a value or a label. */
function sentenceLike(text: string): boolean {
  const words = text.split(' ');
  return words.length >= 5 && words.filter((word) => /^\p{Ll}+[,.;:]?$/u.test(word)).length >= 3;
}
const isProse = (text: string): boolean =>
  text.length > MAX_CELL_CHARS || text.split(' ').length > MAX_CELL_WORDS || sentenceLike(text);

/**
 * The tables of one page: runs of close rows of short cells whose full-width rows line up in at least three
 * columns. Conservative by design; a two-column page of prose, a list or a caption never qualifies. On a two-column
 * page each column is read on its own as well (a table beside prose or beside another table), and a table found
 * across the whole page stands only when it reaches over the gutter.
 */
export function findPageTables(
  items: readonly PageTextItem[],
  page: number,
  layout: PageLayout = pageLayout(items),
): FoundTable[] {
  const { rows, gutter } = layout;
  if (gutter === undefined) return tablesOfRows(rows, page, true);
  const left = tablesOfRows(columnRows(rows, gutter, 'left'), page, true);
  // A table atop the right column still comes after the left column's text in reading order.
  const right = tablesOfRows(columnRows(rows, gutter, 'right'), page, false);
  const wide = tablesOfRows(rows, page, true).filter(
    (table) => table.columns[0]!.x1 < gutter && table.columns.at(-1)!.x0 > gutter && !twoCaptioned(table, left, right),
  );
  const inColumns = [...left, ...right].filter((table) => !wide.some((other) => overlaps(table.box, other.box)));
  return [...wide.sort((a, b) => b.box.y1 - a.box.y1), ...inColumns];
}

/** Two tables side by side, each captioned in its own column, are read as one across the page: they are two. */
function twoCaptioned(wide: FoundTable, left: readonly FoundTable[], right: readonly FoundTable[]): boolean {
  const captionIn = (side: readonly FoundTable[]) =>
    side.find((table) => table.caption !== undefined && overlaps(table.box, wide.box))?.caption;
  const a = captionIn(left);
  const b = captionIn(right);
  return a !== undefined && b !== undefined && a !== b;
}

const overlaps = (a: TableBox, b: TableBox): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

function tablesOfRows(rows: readonly TextRow[], page: number, mayOpenPage: boolean): FoundTable[] {
  const found: FoundTable[] = [];
  let run: TextRow[] = [];
  const close = (): void => {
    const table = tableOf(run, page);
    if (table) {
      const caption = captionNear(rows, table);
      const atTop =
        mayOpenPage && !rows.some((row) => row.y > table.box.y1 && !row.cells.some((cell) => CAPTION.test(cell.text)));
      found.push({ ...table, ...(caption ? { caption } : {}), ...(atTop ? { atTop } : {}) });
    }
    run = [];
  };
  for (const row of rows) {
    const caption = row.cells.find((cell) => CAPTION.test(cell.text));
    if (caption && (run.length === 0 || overlapsRun(run, caption.x0, caption.x1))) {
      close();
      continue;
    }
    // Prose beside a table (the other column of a two-column page), or another table's caption there, is left out
    // of its rows, not a reason to end it.
    const cells = row.cells.filter((cell) => !isProse(cell.text) && cell !== caption);
    if (cells.length === 0) continue;
    const previous = run.at(-1);
    if (previous !== undefined && previous.y - row.y > Math.max(previous.size, row.size) * MAX_ROW_GAP) close();
    run.push(cells.length === row.cells.length ? row : { ...row, cells });
  }
  close();
  return found;
}

function overlapsRun(run: readonly TextRow[], x0: number, x1: number): boolean {
  let left = Infinity;
  let right = -Infinity;
  for (const row of run)
    for (const cell of row.cells) {
      left = Math.min(left, cell.x0);
      right = Math.max(right, cell.x1);
    }
  return x0 < right && x1 > left;
}

/** Within this tolerance most full rows of a column share a left edge, a right edge or a centre. */
function aligned(edges: readonly number[], tolerance: number): boolean {
  const sorted = [...edges].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  return edges.filter((edge) => Math.abs(edge - median) <= tolerance).length >= Math.ceil(edges.length * 0.8);
}

/** The columns (sorted, apart) that [x0, x1] overlaps: a binary search, so a wide table costs log(columns) a cell. */
function overlapping(spans: readonly ColumnSpan[], x0: number, x1: number, slack: number): number[] {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (spans[middle]!.x1 + slack <= x0) low = middle + 1;
    else high = middle;
  }
  const hits: number[] = [];
  for (let index = low; index < spans.length && spans[index]!.x0 - slack < x1; index += 1) hits.push(index);
  return hits;
}

/** The two adjacent columns whose gap holds [x0, x1] wholly, or none. */
function between(spans: readonly ColumnSpan[], cell: RowCell): number[] {
  const index = spans.findIndex((span, i) => i > 0 && spans[i - 1]!.x1 <= cell.x0 && cell.x1 <= span.x0);
  return index > 0 ? [index - 1, index] : [];
}

/** Whether each item of a cell across columns lies within one column, so the cell is several cells set tight. */
function splitsAlong(cell: RowCell, columns: readonly ColumnSpan[], size: number): boolean {
  return (
    cell.parts.length > 1 && cell.parts.every((part) => overlapping(columns, part.x0, part.x1, size * 0.3).length === 1)
  );
}

function tableOf(candidate: readonly TextRow[], page: number): FoundTable | undefined {
  let rows = [...candidate];
  let lead: TextRow | undefined;
  while (rows.length > 0 && rows[0]!.cells.length < 2) lead = rows.shift();
  while (rows.length > 0 && rows.at(-1)!.cells.length < 2) rows.pop();
  if (rows.length === 0) return undefined;
  // The usual number of cells in a row is the number of columns (a stray fragment beside the table adds one).
  const counts = new Map<number, number>();
  for (const row of rows)
    if (row.cells.length >= 2) counts.set(row.cells.length, (counts.get(row.cells.length) ?? 0) + 1);
  let width = 0;
  for (const [count, times] of counts)
    if (times > (counts.get(width) ?? 0) || (times === counts.get(width) && count > width)) width = count;
  if (width < MIN_COLUMNS) return undefined;
  const full = rows.filter((row) => row.cells.length === width);
  const size = full[0]!.size;
  const columns: ColumnSpan[] = [];
  for (let index = 0; index < width; index += 1) {
    const cells = full.map((row) => row.cells[index]!);
    // Row labels may be indented under a group (`+ BiLSTM` under `No NSP`): the first column's left edges may step in.
    const tolerance = size * (index === 0 ? 1.5 : 0.6);
    const lined =
      aligned(
        cells.map((cell) => cell.x0),
        tolerance,
      ) ||
      aligned(
        cells.map((cell) => cell.x1),
        tolerance,
      ) ||
      aligned(
        cells.map((cell) => (cell.x0 + cell.x1) / 2),
        tolerance,
      );
    if (!lined) return undefined;
    // Loops, not Math.min(...cells): a table of 100,000 rows would overflow the stack as arguments.
    let x0 = Infinity;
    let x1 = -Infinity;
    for (const cell of cells) {
      if (cell.x0 < x0) x0 = cell.x0;
      if (cell.x1 > x1) x1 = cell.x1;
    }
    columns.push({ x0, x1 });
  }
  for (let index = 1; index < width; index += 1) if (columns[index]!.x0 <= columns[index - 1]!.x1) return undefined;
  // A lone cell right above the table, over two or more of its value columns (not over the labels): a group header.
  const group = lead?.cells[0];
  if (
    lead &&
    group &&
    lead.y - rows[0]!.y <= lead.size * MAX_ROW_GAP &&
    group.x0 > columns[0]!.x1 &&
    overlapping(columns, group.x0, group.x1, 0).length > 1
  ) {
    rows = [lead, ...rows];
  }

  // Every cell of every row must fall in (or across) the columns; a row that does not ends the table at an edge.
  const placed: { grid: GridRow; spanning: boolean; row: TextRow }[] = [];
  let seenFull = false;
  let labelNamed = false;
  for (const row of rows) {
    const cells = Array.from({ length: width }, () => '');
    const boxes: (CellBox | undefined)[] = Array.from({ length: width }, () => undefined);
    // The ink of a cell's words: from a descender's depth under the baseline to a capital's height above it.
    const ink = (target: number, x0: number, x1: number): void => {
      const box = boxes[target];
      const [y0, y1] = [row.y - row.size * 0.25, row.y + row.size * 0.8];
      boxes[target] = box ? [Math.min(box[0], x0), y0, Math.max(box[2], x1), y1] : [x0, y0, x1, y1];
    };
    let spanning = false;
    let fits = true;
    let inside = 0;
    for (const cell of row.cells) {
      // Wholly left or right of the table: text of the page's other column.
      if (cell.x0 > columns.at(-1)!.x1 + size || cell.x1 < columns[0]!.x0 - size) continue;
      inside += 1;
      let hits = overlapping(columns, cell.x0, cell.x1, size * 0.3);
      // A header centred over the gap between two columns (`NER` over its fine-tune and feature-based columns)
      // names both.
      if (hits.length === 0 && !seenFull) hits = between(columns, cell);
      if (hits.length === 0) {
        fits = false;
        break;
      }
      if (hits.length > 1 && splitsAlong(cell, columns, size)) {
        // Words set tight across several columns (`#H #A`): each goes to its own column.
        let previous = -1;
        for (const part of cell.parts) {
          const target = overlapping(columns, part.x0, part.x1, size * 0.3)[0]!;
          // Within a column the parts join as they were set (small capitals `M` + `ASK` with no space).
          const space = target !== previous || part.spaced ? ' ' : '';
          cells[target] = cells[target] ? `${cells[target]}${space}${part.text}` : part.text;
          ink(target, part.x0, part.x1);
          previous = target;
        }
        continue;
      }
      if (hits.length > 1) spanning = true;
      // Above the first full row a cell across columns is a group header: each column it covers is named by it.
      // One that starts in the label column once that column has its name is a section's name (`Published`): a label.
      const group = hits.length > 1 && !seenFull && (hits[0]! > 0 || !labelNamed);
      const targets = group ? hits : hits.slice(0, 1);
      for (const target of targets) {
        cells[target] = cells[target] ? `${cells[target]} ${cell.text}` : cell.text;
        ink(target, cell.x0, cell.x1);
      }
    }
    if (inside === 0) continue;
    if (!fits) {
      if (placed.length === 0) continue;
      break;
    }
    placed.push({ grid: { page, cells, boxes }, spanning, row });
    if (cells[0] !== '') labelNamed = true;
    if (row.cells.length === width) seenFull = true;
  }
  if (placed.length === 0) return undefined;
  // Fewer rows may still be the rest of a table from the page before (see `joinAcrossPages`), never a table alone.
  const fragment = placed.length < MIN_ROWS || placed.filter((entry) => entry.row.cells.length === width).length < 2;
  let filled = 0;
  for (const entry of placed) filled += entry.grid.cells.filter((cell) => cell !== '').length;
  if (filled < placed.length * width * 0.5) return undefined;
  const first = placed[0]!.row;
  const last = placed.at(-1)!.row;
  return {
    page,
    columns,
    rows: placed.map((entry) => entry.grid),
    spanning: placed.map((entry) => entry.spanning),
    box: { x0: columns[0]!.x0, x1: columns.at(-1)!.x1, y0: last.y - last.size * 0.5, y1: first.y + first.size },
    ...(fragment ? { fragment } : {}),
  };
}
