import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { stem } from './stem.ts';

describe('stem', () => {
  it('answers what stemmer answers, the first time and from the cache', () => {
    const words = ['running', 'generalizations', 'caresses', 'ponies', 'x7', '2024', 'état', 'relational', 'a'];
    for (let round = 0; round < 2; round++) for (const word of words) expect(stem(word)).toBe(stemmer(word));
  });

  it('stays right past the cache bound (it starts over when full)', () => {
    const words = Array.from(
      { length: 100_050 },
      (_, i) => `w${i.toString(36).replace(/\d/g, (d) => 'abcdefghij'[Number(d)] as string)}ing`,
    );
    for (const word of words) expect(stem(word)).toBe(stemmer(word));
    expect(stem(words[0] as string)).toBe(stemmer(words[0] as string));
  });
});
