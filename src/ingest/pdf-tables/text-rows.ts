import type { PageTextItem, RowCell, TextRow } from './page-text.ts';

/** A gap this many font sizes wide separates cells; word spaces (even justified ones) stay below it. */
const CELL_GAP = 0.8;
const NUMBER_GAP = 0.3;
/** How far below its row's baseline a subscript may sit, in the row's font size. */
const SUBSCRIPT_DROP = 0.7;
/** A figure, a dash for "none", or a short figure with a unit. */
const NUMERIC = /^(?:[-–—]|[+\-−]?[$€£¥]?\d[\d.,/]*(?:%|[a-zA-Z]{1,3})?)$/;

/**
 * A page's items → rows by baseline, each split into cells where the horizontal gap is wide. One sort by y and one
 * per row by x: O(n log n) however many items the page has. A subscript (`BERT` + `BASE`) shares its row.
 */
export function textRows(items: readonly PageTextItem[]): TextRow[] {
  const visible = items.filter((item) => item.str.trim() !== '' && item.fontSize > 0);
  visible.sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: TextRow[] = [];
  let group: PageTextItem[] = [];
  let top = 0;
  let size = 0;
  const finish = (): void => {
    if (group.length > 0) rows.push(splitRow(group, top, size));
    group = [];
  };
  for (const item of visible) {
    // A subscript (smaller, set below the baseline: `BERT` + `BASE`) belongs to its row, further down than a word would.
    const reach = item.fontSize < size * 0.8 ? SUBSCRIPT_DROP : 0.5;
    if (group.length > 0 && top - item.y > Math.max(size, item.fontSize) * reach) finish();
    if (group.length === 0) {
      top = item.y;
      size = item.fontSize;
    }
    group.push(item);
    if (item.fontSize > size) size = item.fontSize;
  }
  finish();
  return rows;
}

function splitRow(items: PageTextItem[], y: number, size: number): TextRow {
  items.sort((a, b) => a.x - b.x);
  const cells: RowCell[] = [];
  let cell: RowCell | undefined;
  let lastSize = 0;
  let lastStr = '';
  let lastY = y;
  for (const item of items) {
    const text = item.str.replace(/\s+/g, ' ').trim();
    const x1 = item.x + Math.max(item.width, 0);
    const gap = cell ? item.x - cell.x1 : Infinity;
    // Figures set close together (`82.3 91.2`) are separate values as soon as a space shows between them.
    const between = NUMERIC.test(text) && NUMERIC.test(lastStr.trim()) ? NUMBER_GAP : CELL_GAP;
    // Measured in the neighbours' own size: prose in a larger font on the same baseline must not widen the gap.
    if (!cell || gap > Math.max(item.fontSize, lastSize) * between) {
      cell = { text, x0: item.x, x1, size: item.fontSize, parts: [{ text, x0: item.x, x1 }] };
      cells.push(cell);
    } else {
      // A visible gap or a subscript (a change of size and baseline) is a word break; small capitals (a change of
      // size on the baseline: `M` + `ASK`) are not.
      const space =
        gap > item.fontSize * 0.2 ||
        (Math.abs(item.fontSize - lastSize) > 0.5 && Math.abs(item.y - lastY) > item.fontSize * 0.1) ||
        /\s$/.test(lastStr) ||
        /^\s/.test(item.str)
          ? ' '
          : '';
      const joiner = /^[)\].,;:]/.test(text) ? '' : space;
      cell.text = `${cell.text}${joiner}${text}`;
      cell.x1 = Math.max(cell.x1, x1);
      cell.size = Math.max(cell.size, item.fontSize);
      cell.parts.push({ text, x0: item.x, x1, ...(joiner ? { spaced: true } : {}) });
    }
    lastSize = item.fontSize;
    lastStr = item.str;
    lastY = item.y;
  }
  return { y, size, cells };
}
