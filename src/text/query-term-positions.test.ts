import { describe, expect, it } from 'vitest';
import { analyzeQuery } from './analyzer.ts';
import { queryTermMatcher, referenceTermPositions } from './query-term-positions.ts';
import { stem } from './stem.ts';

/** Words in the forms chunk text takes: plain and capitalised prose, edge punctuation, identifiers, numbers, CJK. */
const VOCABULARY = [
  'supplier',
  'Suppliers',
  'SUPPLIED',
  'delivering',
  'delivery,',
  '(deliveries)',
  '"notice"',
  'noticed.',
  'period;',
  'periods',
  'the',
  'The',
  'of',
  'a',
  "don't",
  'state-of-the-art',
  'i.e.',
  'e.g.,',
  'CT-2024-0193',
  'ct-2024-0193.',
  'v2.1.3',
  '$500K',
  '500k',
  '1,250.50',
  'order_total_usd',
  '0x7a25f3c9',
  'alice@example.com',
  '--',
  '$',
  '...',
  'x',
  'café',
  'Cafe',
  'ｓｕｐｐｌｉｅｒ',
  '合同',
  '供应商交付',
  '使用HIP-3协议',
  '数据',
  'naïve',
  '𝐀pple',
  'hyper­text',
];
const SPACES = [' ', ' ', ' ', '  ', '\n', '\t', '\u00a0', '\u3000', ' \r\n'];

function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

const entries = (found: Map<string, number[]>) => [...found.entries()];

describe('queryTermMatcher', () => {
  it('finds the positions the definition finds (analyse, walk), in the same order, on random texts and queries', () => {
    const pick = random(11);
    let matched = 0;
    for (let round = 0; round < 300; round++) {
      const query = Array.from({ length: 1 + pick(5) }, () => VOCABULARY[pick(VOCABULARY.length)]).join(' ');
      const terms = analyzeQuery(query);
      const matcher = queryTermMatcher(terms);
      for (let t = 0; t < 5; t++) {
        const asciiOnly = t < 3;
        const words = VOCABULARY.filter((word) => !asciiOnly || /^[\x00-\x7f]*$/.test(word));
        let text = '';
        for (let w = 0, n = pick(60); w < n; w++) {
          text +=
            (words[pick(words.length)] as string) +
            (asciiOnly ? ' \n\t'[pick(3)] : (SPACES[pick(SPACES.length)] as string));
        }
        const found = entries(matcher(text));
        matched += found.reduce((sum, [, positions]) => sum + positions.length, 0);
        expect({ query, text, found }).toEqual({
          query,
          text,
          found: entries(referenceTermPositions(text, terms)),
        });
      }
    }
    expect(matched).toBeGreaterThan(1000);
  });

  it('stays exact when another query begins while an earlier matcher is still in use', () => {
    const first = queryTermMatcher(analyzeQuery('supplier notice'));
    const second = queryTermMatcher(analyzeQuery('delivery period'));
    const text = 'The Supplier gave notice; delivery within the period. Suppliers deliver.';
    for (const [matcher, query] of [
      [first, 'supplier notice'],
      [second, 'delivery period'],
      [first, 'supplier notice'],
    ] as const) {
      expect(entries(matcher(text))).toEqual(entries(referenceTermPositions(text, analyzeQuery(query))));
    }
    expect(entries(first(text))).toEqual([
      ['supplier', [1, 8]],
      ['notic', [3]],
    ]);
  });

  it('matches a prefix query term by prefix, as the definition does', () => {
    const terms = analyzeQuery('0x7a25f3');
    expect(terms).toEqual(['0x7a25f3*']);
    const text = 'Paid to 0x7a25f3c9d1 and 0x7a2500.';
    expect(entries(queryTermMatcher(terms)(text))).toEqual([['0x7a25f3*', [2]]]);
  });

  it('stays exact as its word table grows and starts over (150k distinct words)', () => {
    const word = (n: number) => {
      let out = '';
      for (let k = n + 26 * 27; k > 0; k = Math.floor(k / 26)) out += String.fromCharCode(97 + (k % 26));
      return out;
    };
    const pick = random(23);
    const terms = analyzeQuery([word(5), word(77_000), word(149_999), 'notice'].join(' '));
    const matcher = queryTermMatcher(terms);
    let matched = 0;
    for (let first = 0; first < 150_000; first += 1000) {
      const words = Array.from({ length: 1000 }, (_, i) => word(first + i));
      for (let k = 0; k < 5; k++)
        words[pick(1000)] = [word(5), word(77_000), word(149_999), 'Notice,'][pick(4)] as string;
      const text = words.join(' ');
      const found = entries(matcher(text));
      matched += found.length;
      expect(found).toEqual(entries(referenceTermPositions(text, terms)));
    }
    expect(matched).toBeGreaterThan(100);
  });
  it('passes over a plain word by its first letter only when no stem can start with it', () => {
    // The matcher skips plain words whose first letter starts no query term: that relies on a Porter stem starting
    // with its word's first letter. Words with every suffix the stemmer rewrites, after heads of one to four letters
    // (leading y, vowels, doubled consonants) and capitalised.
    const heads = ['a', 'e', 'y', 'i', 'o', 'u', 'b', 'ye', 'ya', 'ay', 'ey', 'bl', 'ss', 'yy', 'eed', 'ion', 'tt'];
    const tails = [
      '',
      's',
      'es',
      'ies',
      'sses',
      'ed',
      'eed',
      'ing',
      'ying',
      'y',
      'ational',
      'tional',
      'enci',
      'izer',
      'bli',
      'alli',
      'logi',
      'icate',
      'ative',
      'alize',
      'ful',
      'ness',
      'al',
      'ance',
      'ement',
      'ion',
      'sion',
      'e',
      'll',
    ];
    const words: string[] = [];
    for (const head of heads)
      for (const mid of ['', 'r', 'at', 'tt', 'll']) for (const tail of tails) words.push(head + mid + tail);
    for (const word of words) {
      expect(stem(word).charAt(0)).toBe(word.charAt(0));
      expect(stem(word).length).toBeGreaterThan(0);
    }
    const text = words.map((word, i) => (i % 3 === 0 ? word.toUpperCase() : word)).join(' ');
    for (const query of ['yes yielding eeds', 'ayes ionize', 'blessing tt', 'aational sses yying']) {
      const terms = analyzeQuery(query);
      expect(entries(queryTermMatcher(terms)(text))).toEqual(entries(referenceTermPositions(text, terms)));
    }
  });
});
