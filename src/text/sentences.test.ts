import { describe, expect, it } from 'vitest';
import { headedSentences } from './sentences.ts';

describe('headedSentences', () => {
  it('ends a sentence at a stop and a space, not at an abbreviation or before a lower-case word', () => {
    const text =
      'Peters et al. (2018b) presented mixed results, e.g. for two layers. See Fig. 3 for the curve. We mask 15% of ' +
      'tokens. It works well enough.';
    expect(headedSentences(text).map((sentence) => sentence.text)).toEqual([
      'Peters et al. (2018b) presented mixed results, e.g. for two layers.',
      'See Fig. 3 for the curve.',
      'We mask 15% of tokens.',
      'It works well enough.',
    ]);
  });

  it('reads a middle initial as part of a name, not the end of a sentence', () => {
    const text =
      'Iowa became a state when President James K. Polk signed the act. It joined the Union in 1846. See Appendix A. The terms follow. It began with the work of G. Stanley Hall.';
    expect(headedSentences(text).map((sentence) => sentence.text)).toEqual([
      'Iowa became a state when President James K. Polk signed the act.',
      'It joined the Union in 1846.',
      'See Appendix A.',
      'The terms follow.',
      'It began with the work of G. Stanley Hall.',
    ]);
  });

  it('ends a Chinese sentence at its full stop without a space', () => {
    expect(headedSentences('金晨主演了这部剧。它于2022年播出。').map((sentence) => sentence.text)).toEqual([
      '金晨主演了这部剧。',
      '它于2022年播出。',
    ]);
  });
});
