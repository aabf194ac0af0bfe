import { describe, expect, it } from 'vitest';
import {
  ANALYSED_FORM_VERSION,
  dedupeShingles,
  dedupeWords,
  encodeAnalysedForm,
  prefixLength,
  shingleHash,
  STORED_PREFIX_THRESHOLD,
  storedShingles,
  storedTermMatcher,
  wordHash,
} from './analysed-form.ts';
import { analyzeForIndex, analyzeQuery } from './analyzer.ts';
import { referenceTermPositions } from './query-term-positions.ts';

/** Words in the forms chunk text takes: prose, edge punctuation, identifiers, numbers, CJK, full-width, accents. */
const VOCABULARY = [
  'supplier',
  'Suppliers',
  'delivering',
  'delivery,',
  '(deliveries)',
  '"notice"',
  'period;',
  'the',
  'of',
  "don't",
  'state-of-the-art',
  'e.g.,',
  'CT-2024-0193',
  'v2.1.3',
  '$500K',
  '1,250.50',
  'order_total_usd',
  '0x7a25f3c9',
  'alice@example.com',
  '--',
  'café',
  'ｓｕｐｐｌｉｅｒ',
  '合同',
  '供应商交付',
  '使用HIP-3协议',
  'naïve',
  '𝐀pple',
];
const SPACES = [' ', '\n', '\t', '\u00a0', '\u3000', ' \r\n'];

function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

const entries = (found: Map<string, number[]> | undefined) => (found ? [...found.entries()] : found);
const formOf = (text: string) => encodeAnalysedForm(text, analyzeForIndex(text));

describe('analysed form: rerank positions', () => {
  it('gives the positions the definition gives (analyse, walk), in the same order, on random texts and queries', () => {
    const pick = random(5);
    let matched = 0;
    for (let round = 0; round < 300; round++) {
      const query = Array.from({ length: 1 + pick(5) }, () => VOCABULARY[pick(VOCABULARY.length)]).join(' ');
      const terms = analyzeQuery(query);
      const matcher = storedTermMatcher(terms);
      for (let t = 0; t < 4; t++) {
        let text = '';
        for (let w = 0, n = pick(80); w < n; w++)
          text += (VOCABULARY[pick(VOCABULARY.length)] as string) + (SPACES[pick(SPACES.length)] as string);
        const found = entries(matcher(formOf(text)));
        matched += (found ?? []).reduce((sum, [, positions]) => sum + positions.length, 0);
        expect({ query, text, found }).toEqual({ query, text, found: entries(referenceTermPositions(text, terms)) });
      }
    }
    expect(matched).toBeGreaterThan(1000);
  });

  it('matches prefix and repeated query terms as the definition does, and texts of more than 256 distinct terms', () => {
    const text = `Paid to 0x7a25f3c9d1 and 0x7a2500. ${Array.from({ length: 700 }, (_, i) => `word${i}`).join(' ')} supplier`;
    for (const terms of [['0x7a25f3*'], ['supplier', 'supplier', 'word699'], ['word1*', 'supplier']]) {
      expect(entries(storedTermMatcher(terms)(formOf(text)))).toEqual(entries(referenceTermPositions(text, terms)));
    }
  });

  it('reads no form of another version', () => {
    const form = formOf('the supplier gave notice');
    expect(form[0]).toBe(ANALYSED_FORM_VERSION);
    const other = Uint8Array.from(form);
    other[0] = ANALYSED_FORM_VERSION + 1;
    expect(storedTermMatcher(['supplier'])(other)).toBeUndefined();
    expect(storedShingles(other)).toBeUndefined();
    expect(storedShingles(new Uint8Array(0))).toBeUndefined();
  });
});

describe('analysed form: dedupe shingles', () => {
  it('stores the true distinct shingle count and the smallest distinct hashes a twin at the threshold must share', () => {
    const pick = random(9);
    for (let round = 0; round < 200; round++) {
      let text = '';
      // Round 0: more distinct words than three word ids pack into a number.
      if (round === 0) text = Array.from({ length: 140_000 }, (_, i) => `w${i % 139_000}`).join(' ');
      for (let w = 0, n = pick(120); w < n; w++)
        text += `${VOCABULARY[pick(VOCABULARY.length)]}${pick(3) === 0 ? pick(50) : ''}${SPACES[pick(SPACES.length)]}`;
      const shingles = dedupeShingles(dedupeWords(text), 3);
      const stored = storedShingles(formOf(text));
      // Each shingle's hash from its words' (a missing word of a short text: 0).
      const hashOf = (key: string) => {
        const [a, b, c] = key.split('\u0001').map((word) => (word === '' ? 0 : wordHash(word)));
        return shingleHash(a as number, b as number, c as number);
      };
      const distinct = [...new Set([...shingles].map(hashOf))].sort((a, b) => a - b);
      const wanted = shingles.size === 0 ? 0 : prefixLength(shingles.size, STORED_PREFIX_THRESHOLD);
      expect(stored).toEqual({ count: shingles.size, prefix: Uint32Array.from(distinct.slice(0, wanted)) });
    }
  });

  it('reads words as dedupe does: NFKC, lowercase, runs of letters and digits', () => {
    expect(dedupeWords('The SUPPLIER, ｓｕｐｐｌｉｅｒ; café-CAFÉ 供应商 x1')).toEqual([
      'the',
      'supplier',
      'supplier',
      'café',
      'café',
      '供应商',
      'x1',
    ]);
    expect([...dedupeShingles(['a', 'b'], 3)]).toEqual(['a\u0001b\u0001']);
    expect(dedupeShingles([], 3).size).toBe(0);
  });
});
