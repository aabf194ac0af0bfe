import { describe, expect, it } from 'vitest';
import { findPageTables } from './find-tables.ts';
import type { PageTextItem } from './page-text.ts';

/** A word as pdf.js reports it, 5.5 points a character at size 11. */
const word = (str: string, x: number, y: number, fontSize = 11): PageTextItem => ({
  str,
  x,
  y,
  width: str.length * fontSize * 0.5,
  fontSize,
});

describe('findPageTables on pages with many text items', () => {
  it('reads a grid of 16,000 items as one table in one pass of sorts (no pairwise work between rows)', () => {
    const items: PageTextItem[] = [];
    const columns = 8;
    for (let row = 0; row < 2000; row += 1) {
      for (let column = 0; column < columns; column += 1) {
        items.push(
          word(row === 0 ? `Col${column}` : String(row * columns + column), 40 + column * 70, 100_000 - row * 13),
        );
      }
    }
    // Shuffled, as a content stream need not list text in reading order.
    items.sort((a, b) => ((a.x * 7919 + a.y * 104_729) % 997) - ((b.x * 7919 + b.y * 104_729) % 997));
    const [table, ...rest] = findPageTables(items, 1);
    expect(rest).toEqual([]);
    expect(table?.columns).toHaveLength(columns);
    expect(table?.rows).toHaveLength(2000);
    expect(table?.rows[1]?.cells).toEqual(['8', '9', '10', '11', '12', '13', '14', '15']);
  });

  it('finds nothing in 3,000 lines of two-column prose set word by word (justified)', () => {
    const items: PageTextItem[] = [];
    const words = ['the', 'model', 'reads', 'each', 'passage', 'and', 'cites', 'its', 'source'];
    for (let line = 0; line < 3000; line += 1) {
      for (const left of [72, 320]) {
        let x = left;
        for (let index = 0; index < 6; index += 1) {
          const text = words[(line + index + left) % words.length]!;
          items.push(word(text, x, 50_000 - line * 13));
          x += text.length * 5.5 + 4 + (line % 3);
        }
      }
    }
    expect(findPageTables(items, 1)).toEqual([]);
  });

  it('keeps a subscript in its row label and splits figures set close together', () => {
    const items: PageTextItem[] = [
      word('System', 72, 700),
      word('Dev', 200, 700),
      word('Test', 227, 700),
      ...[
        ['BASE', 690, '84.6', '83.4'],
        ['LARGE', 678, '86.7', '85.9'],
        ['TINY', 666, '70.1', '69.5'],
      ].flatMap(([size, y, dev, test]) => [
        word('BERT', 72, Number(y)),
        word(String(size), 100, Number(y) - 1, 7),
        word(String(dev), 200, Number(y)),
        // 5 points after the Dev figure: closer than the gap that splits words into cells, yet another column.
        word(String(test), 200 + 22 + 5, Number(y)),
      ]),
    ];
    const [table] = findPageTables(items, 1);
    expect(table?.rows.map((row) => row.cells)).toEqual([
      ['System', 'Dev', 'Test'],
      ['BERT BASE', '84.6', '83.4'],
      ['BERT LARGE', '86.7', '85.9'],
      ['BERT TINY', '70.1', '69.5'],
    ]);
  });
});
