import { describe, expect, it } from 'vitest';
import { firstSentenceEnd } from './first-sentence.ts';

describe('the end of a text first sentence', () => {
  it('ends at a stop before a space or the end, and at a CJK stop anywhere', () => {
    const text = 'It is 4 days. Then more';
    expect(text.slice(0, firstSentenceEnd(text))).toBe('It is 4 days');
    expect(firstSentenceEnd('成立于2009年。后来')).toBe('成立于2009年'.length);
    expect(firstSentenceEnd('no stop here')).toBe(-1);
  });

  it('does not end at decimals, abbreviations, titles, place words or initials', () => {
    for (const text of [
      '86.7 on MNLI. Second.',
      'Zhu et al. report it. Later.',
      'It lost to St. Louis Cardinals. Later.',
      'Signed by Dr. Ruiz. Later.',
      'James K. Polk signed it. Later.',
    ])
      expect(text.slice(0, firstSentenceEnd(text) + 1)).toMatch(/(?:MNLI|it|Cardinals|Ruiz)\.$/u);
  });
});
