import { describe, expect, it } from 'vitest';
import { removeCjkSpaces } from './cjk-spacing.ts';

describe('removeCjkSpaces', () => {
  it('joins Chinese characters and punctuation that tesseract spaced apart', () => {
    expect(removeCjkSpaces('光学 字符 识别 把 扫描 的 页 面 变 成 文字 。')).toBe('光学字符识别把扫描的页面变成文字。');
    expect(removeCjkSpaces('港口 ， 船只')).toBe('港口，船只');
  });

  it('keeps the spaces around Latin words and numbers, and between Korean words', () => {
    expect(removeCjkSpaces('BERT 模型 在 GLUE 上 得 分 80.5')).toBe('BERT 模型在 GLUE 上得分 80.5');
    expect(removeCjkSpaces('the harbour authority')).toBe('the harbour authority');
    expect(removeCjkSpaces('한국어 문장 입니다')).toBe('한국어 문장 입니다');
  });

  it('joins kana as well, but never across a line break', () => {
    expect(removeCjkSpaces('ひらがな と カタカナ')).toBe('ひらがなとカタカナ');
    expect(removeCjkSpaces('第一行\n第二行')).toBe('第一行\n第二行');
  });
});
