import { describe, expect, it } from 'vitest';
import { ocrTextBlocks } from './ocr-text-blocks.ts';
import { pagesHave } from './page-list.ts';

describe('ocrTextBlocks', () => {
  it('makes a block per paragraph, each carrying its page, with broken words joined', () => {
    const text =
      'The harbour authority inspects\nevery vessel before it may leave.\n\nOptical charac-\nter recognition reads it.\n\n\f';
    expect(ocrTextBlocks(text, 3)).toEqual([
      { kind: 'text', text: 'The harbour authority inspects every vessel before it may leave.', page: 3 },
      { kind: 'text', text: 'Optical character recognition reads it.', page: 3 },
    ]);
  });

  it('drops paragraphs of specks (no letter or digit) and removes the spaces between Chinese characters', () => {
    expect(ocrTextBlocks('  . , ~\n\n检索 增强 生成 需要 每 一 页 的 证 据 。\n', 1)).toEqual([
      { kind: 'text', text: '检索增强生成需要每一页的证据。', page: 1 },
    ]);
    expect(ocrTextBlocks('', 1)).toEqual([]);
  });
});

describe('pagesHave', () => {
  it('names the pages a message is about', () => {
    expect(pagesHave([3])).toBe('page 3 has');
    expect(pagesHave([1, 3])).toBe('pages 1 and 3 have');
    expect(pagesHave([1, 2, 5])).toBe('pages 1, 2 and 5 have');
    expect(pagesHave([1, 2, 3, 4, 5, 6, 7])).toBe('pages 1, 2, 3, 4, 5 and 2 more have');
  });
});
