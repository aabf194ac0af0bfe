import type { PageTextItem, TextRow } from './page-text.ts';
import { textRows } from './text-rows.ts';

/** The gutter is looked for in the middle of the text's extent: a narrow margin note is no second column. */
const MIDDLE = [0.3, 0.7] as const;
/** At most this share of the rows may cross it (full-width headings, captions and tables do). */
const MAX_CROSSING = 0.25;
/** Both columns hold at least this many rows of text. */
const MIN_ROWS_EACH_SIDE = 8;
/** And at least this share of the page's rows each. */
const MIN_SHARE_EACH_SIDE = 0.3;
/** The empty band is at least this many points wide. */
const MIN_WIDTH = 4;

/**
 * The x of the gutter between the two columns of a two-column page, or undefined for a one-column page: the widest
 * band in the middle of the page that the fewest rows' cells cross. One pass over the cells and one over the band's
 * points (a difference array), so a page of many items costs no more than reading them.
 */
export function pageGutter(rows: readonly TextRow[]): number | undefined {
  if (rows.length < MIN_ROWS_EACH_SIDE) return undefined;
  let left = Infinity;
  let right = -Infinity;
  for (const row of rows)
    for (const cell of row.cells) {
      if (cell.x0 < left) left = cell.x0;
      if (cell.x1 > right) right = cell.x1;
    }
  const from = Math.ceil(left + (right - left) * MIDDLE[0]);
  const to = Math.floor(left + (right - left) * MIDDLE[1]);
  if (to - from < MIN_WIDTH) return undefined;
  // crossing[i]: how many rows have a cell across the point from + i (a row counts once however many cells it has).
  const delta = new Int32Array(to - from + 2);
  for (const row of rows) {
    let last = -1;
    for (const cell of row.cells) {
      const start = Math.max(from, Math.floor(cell.x0) + 1, last + 1);
      const end = Math.min(to, Math.ceil(cell.x1) - 1);
      if (start > end) continue;
      delta[start - from]! += 1;
      delta[end - from + 1]! -= 1;
      last = end;
    }
  }
  let best = { start: 0, width: 0, crossing: Infinity };
  let running = 0;
  let runStart = 0;
  let runCrossing = -1;
  for (let i = 0; i <= to - from; i += 1) {
    running += delta[i]!;
    if (running !== runCrossing) {
      runStart = i;
      runCrossing = running;
    }
    const width = i - runStart + 1;
    if (running < best.crossing || (running === best.crossing && width > best.width))
      best = { start: runStart, width, crossing: running };
  }
  if (best.width < MIN_WIDTH || best.crossing > rows.length * MAX_CROSSING) return undefined;
  const gutter = from + best.start + best.width / 2;
  let leftRows = 0;
  let rightRows = 0;
  for (const row of rows) {
    if (row.cells.some((cell) => cell.x1 <= gutter)) leftRows += 1;
    if (row.cells.some((cell) => cell.x0 >= gutter)) rightRows += 1;
  }
  // Each column holds a fair share of the page's lines: notes set to the right of a listing are no second column.
  const least = Math.max(MIN_ROWS_EACH_SIDE, rows.length * MIN_SHARE_EACH_SIDE);
  return leftRows >= least && rightRows >= least ? gutter : undefined;
}

/** A page's rows of text and its gutter (undefined on a one-column page): read once, used by text and tables alike. */
export interface PageLayout {
  rows: TextRow[];
  gutter: number | undefined;
}

export function pageLayout(items: readonly PageTextItem[]): PageLayout {
  const rows = textRows(items);
  return { rows, gutter: pageGutter(rows) };
}

/** One column's rows of a two-column page: the cells on its side, and cells across the gutter (which end its runs). */
export function columnRows(rows: readonly TextRow[], gutter: number, side: 'left' | 'right'): TextRow[] {
  const out: TextRow[] = [];
  for (const row of rows) {
    const cells = row.cells.filter((cell) => (side === 'left' ? cell.x0 < gutter : cell.x1 > gutter));
    if (cells.length > 0) out.push(cells.length === row.cells.length ? row : { ...row, cells });
  }
  return out;
}
