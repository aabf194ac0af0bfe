import type { FoundTable, TextRow } from './page-text.ts';

/** `Table 3:` / `Table IV.` opening a line: a caption, never a row. */
export const CAPTION = /^Table\s+(\d{1,3}|[IVXL]{1,6})\s*[:.]/i;

/** A caption goes on over lines this close (in font sizes); a paragraph or the table after it is further away. */
const CAPTION_LINE_GAP = 1.7;
const MAX_CAPTION_LINES = 8;

/**
 * The caption nearest above or below the table (within four lines, overlapping it across): its line's words, then
 * the lines under it that go on at line spacing (one run of text each, outside the table), hyphenation mended.
 */
export function captionNear(rows: readonly TextRow[], table: FoundTable): string | undefined {
  let best: { row: number; index: number; distance: number } | undefined;
  rows.forEach((row, r) => {
    const index = row.cells.findIndex((cell) => CAPTION.test(cell.text));
    const cell = row.cells[index];
    if (!cell) return;
    const distance = row.y > table.box.y1 ? row.y - table.box.y1 : table.box.y0 - row.y;
    if (distance < 0 || distance > row.size * 4 || cell.x0 > table.box.x1 || cell.x1 < table.box.x0) return;
    if (!best || distance < best.distance) best = { row: r, index, distance };
  });
  if (!best) return undefined;
  const { row: at, index } = best;
  const first = rows[at]!;
  const lines = [first.cells[index]!.text];
  let end = first.cells[index]!.x1;
  for (const next of first.cells.slice(index + 1)) {
    if (next.x0 - end > first.size * 3) break;
    lines[0] = `${lines[0]} ${next.text}`;
    end = next.x1;
  }
  const x0 = first.cells[index]!.x0;
  for (let r = at + 1, previous = first; r < rows.length && lines.length < MAX_CAPTION_LINES; r += 1) {
    const row = rows[r]!;
    const line = row.cells.find((cell) => cell.x0 < end && cell.x1 > x0);
    const inTable = row.y >= table.box.y0 && row.y <= table.box.y1;
    // Captions are set in their own size: the text after it in another size is a paragraph.
    const sameSize = line !== undefined && Math.abs(line.size - first.cells[index]!.size) <= 0.5;
    const near = previous.y - row.y <= previous.size * CAPTION_LINE_GAP;
    // After a full stop, a line opening with a number is a footnote (`8 BERT and OpenAI GPT are …`).
    const footnote = line !== undefined && /[.)]$/.test(lines.at(-1)!) && /^\d{1,2}\s\p{Lu}/u.test(line.text);
    if (!line || inTable || !sameSize || !near || footnote || CAPTION.test(line.text)) break;
    lines.push(line.text);
    previous = row;
  }
  return lines.reduce((text, line) => (/\p{L}-$/u.test(text) ? `${text.slice(0, -1)}${line}` : `${text} ${line}`));
}
