import { describe, expect, it } from 'vitest';
import { analyzeForIndex, analyzeQuery, analyzeQueryOccurrences, indexTermsInclude } from './analyzer.ts';

const indexTerms = (text: string) => new Set(analyzeForIndex(text).split(' '));
/** Whether every query term occurs in the index terms (a `*` term as a prefix of one). */
const matches = (query: string, text: string) => {
  const terms = indexTerms(text);
  return analyzeQuery(query).every((term) =>
    term.endsWith('*') ? [...terms].some((t) => t.startsWith(term.slice(0, -1))) : terms.has(term),
  );
};
const TERM = /^[\p{Ll}\p{Lo}\p{N}_$.]+$/u;

describe('analyzer', () => {
  it('lowercases, splits and Porter-stems ordinary words, keeping stopwords in the index', () => {
    expect(analyzeForIndex('The Running runners, quickly!')).toBe('the run runner quickli');
    expect(analyzeQuery('running RUNNERS the')).toEqual(['run', 'runner']);
  });

  it('folds diacritics and full-width forms', () => {
    expect(analyzeForIndex('Café ＡＢＣ１２３')).toBe('cafe abc123');
  });

  it.each([
    ['CT-2024-0193', 'ct_2024_0193', ['ct', '2024', '0193']],
    ['HIP-3', 'hip_3', ['hip', '3']],
    ['$500K', '$500k', ['500k']],
    ['/v2/orders/{id}', 'v2_orders_id', ['v2', 'order', 'id']],
    ['order_total_usd', 'order_total_usd', ['order', 'total', 'usd']],
    ['v2.1.3', 'v2.1.3', ['2.1.3', 'v2', '1', '3']],
    ['alice.smith@example.com', 'alice.smith_example.com', ['alic', 'smith', 'exampl', 'com']],
    ['1,250.50', '1250.50', ['1250']],
    ['$1,250.50', '$1250.50', ['1250.50', '1250']],
  ])('emits a compound for %s besides its parts', (identifier, compound, parts) => {
    const terms = indexTerms(`See (${identifier}), then continue.`);
    expect(terms).toContain(compound);
    for (const part of parts) expect(terms).toContain(part);
    expect(analyzeQuery(`what about ${identifier}?`)).toContain(compound);
  });

  it.each([
    'CT-2024-0193',
    'HIP-3',
    '$500K',
    '500K',
    '/v2/orders/{id}',
    'order_total_usd',
    'AAPL',
    '0x7a25f3c9d1e8b4a6f2c0d9e8b7a6f5e4d3c2b1a0',
    '1,250.50',
    'v2.1.3',
    'alice.smith@example.com',
  ])('round-trips %s: its query terms are a subset of the index terms of a text containing it', (identifier) => {
    const text = `Quarterly note: the item ${identifier}. Other lines follow.`;
    expect(matches(identifier, text)).toBe(true);
    expect(matches(`${identifier}?`, `(${identifier}), and more`)).toBe(true);
    expect(matches(`the ${identifier} lines`, text)).toBe(true);
    expect(
      analyzeForIndex(text)
        .split(' ')
        .every((term) => TERM.test(term)),
    ).toBe(true);
  });

  it('reads abbreviations and initials as their letters, not as an identifier compound', () => {
    expect(analyzeForIndex('systems (i.e., expert systems) by A.J. Perlis')).toBe(
      'system i e expert system by a j perli',
    );
    expect(analyzeForIndex('e.g. U.S.A.')).toBe('e g u s a');
    // Identifiers with digits or several letters between the dots keep their compound.
    expect(analyzeForIndex('v2.1.3 example.com')).toContain('v2.1.3');
    expect(analyzeForIndex('example.com')).toContain('example.com');
  });

  it('leaves stopwords out of queries, unless the query has nothing else', () => {
    expect(analyzeQuery('Memory management aspects of the operating systems')).toEqual([
      'memori',
      'manag',
      'aspect',
      'oper',
      'system',
    ]);
    expect(analyzeQuery('what is this')).toEqual(['what']);
    expect(analyzeQuery('to be or not to be')).toEqual(['to', 'be', 'or', 'not']);
    // Identifiers and their parts are never stopwords.
    expect(analyzeQuery('status of order A-1007')).toEqual(['statu', 'order', 'a_1007', 'a', '1007']);
    expect(analyzeQuery('the HIP-3 status of CT-2024-0193')).toEqual([
      'hip_3',
      'hip',
      '3',
      'statu',
      'ct_2024_0193',
      'ct',
      '2024',
      '0193',
    ]);
  });

  it('keeps every occurrence for the keyword channel, so a repeated word can weigh more', () => {
    expect(analyzeQueryOccurrences('Memory systems: paging and memory allocation in operating systems')).toEqual([
      'memori',
      'system',
      'page',
      'memori',
      'alloc',
      'oper',
      'system',
    ]);
    expect(analyzeQuery('Memory systems: paging and memory allocation in operating systems')).toEqual([
      'memori',
      'system',
      'page',
      'alloc',
      'oper',
    ]);
    // Stopwords go as in analyzeQuery; a query of stopwords only keeps them, repeats included.
    expect(analyzeQueryOccurrences('to be or not to be')).toEqual(['to', 'be', 'or', 'not', 'to', 'be']);
    // An identifier said twice counts twice as its compound; its parts, the fallback terms, count once.
    expect(analyzeQueryOccurrences('CT-2024-0193 or CT-2024-0193?')).toEqual([
      'ct_2024_0193',
      'ct',
      '2024',
      '0193',
      'ct_2024_0193',
    ]);
    // `pge` is also a part of `15-ket-PGE`, so it counts once; `2` is said twice as itself.
    expect(analyzeQueryOccurrences('PGE 2 to 15-ket-PGE 2')).toEqual(['pge', '2', '15_ket_pge', '15', 'ket', '2']);
  });

  it('does not confuse neighbouring identifiers', () => {
    expect(indexTerms('ticket CT-2024-0193')).not.toContain('ct_2024_0194');
    expect(analyzeQuery('CT-2024-0194')).toContain('ct_2024_0194');
    expect(indexTerms('HIP-3')).not.toContain('hip_4');
  });

  it('keeps hyphenated prose as words only', () => {
    expect(analyzeForIndex('state-of-the-art results')).toBe('state of the art result');
    expect(analyzeForIndex('IL-6 levels')).toBe('il_6 il 6 level');
  });

  it('turns hex prefixes of at least 6 characters into prefix terms in queries only', () => {
    expect(analyzeQuery('sent to 0x7a25f3…')).toEqual(['sent', '0x7a25f3*']);
    expect(analyzeQuery('0x7a25')).toEqual(['0x7a25*']);
    expect(analyzeQuery('0x7a2')).toEqual(['0x7a2']);
    expect(analyzeQuery('commit 3f2a9bc')).toEqual(['commit', '3f2a9bc*']);
    expect(analyzeQuery('deadbeef')).toEqual(['deadbeef']);
    expect(analyzeForIndex('0x7A25F3C9D1')).toBe('0x7a25f3c9d1');
    expect(matches('0x7a25f3', 'paid 0x7a25f3c9d1e8b4a6f2c0d9e8b7a6f5e4d3c2b1a0')).toBe(true);
    expect(matches('0x7a25f4', 'paid 0x7a25f3c9d1e8b4a6f2c0d9e8b7a6f5e4d3c2b1a0')).toBe(false);
  });

  it('emits both $-amount and bare amount, and the bare amount query finds the $ text', () => {
    expect(analyzeForIndex('raised $500K')).toBe('rais $500k 500k');
    expect(matches('500K', 'raised $500K')).toBe(true);
    expect(matches('$500K', 'raised 500K')).toBe(false);
  });

  it('indexes Chinese as unigrams and bigrams and queries it as bigrams', () => {
    expect(analyzeForIndex('机器学习')).toBe('机 机器 器 器学 学 学习 习');
    expect(analyzeQuery('机器学习')).toEqual(['机器', '器学', '学习']);
    expect(analyzeQuery('猫')).toEqual(['猫']);
    expect(matches('学习', '我们在研究机器学习的方法')).toBe(true);
    expect(matches('猫', '我的猫很可爱')).toBe(true);
    expect(matches('深度学习', '机器学习')).toBe(false);
  });

  it('splits mixed Chinese and English at script boundaries and analyses each side', () => {
    const index = indexTerms('该系统使用HIP-3协议处理$500K订单');
    for (const term of ['hip_3', 'hip', '3', '$500k', '500k', '协议', '使用', '订单']) expect(index).toContain(term);
    expect(matches('HIP-3协议', '该系统使用HIP-3协议处理$500K订单')).toBe(true);
    expect(analyzeQuery('Running 机器学习')).toEqual(['run', '机器', '器学', '学习']);
  });

  it('handles Japanese and Korean runs as CJK', () => {
    expect(analyzeQuery('カタカナ')).toEqual(['カタ', 'タカ', 'カナ']);
    expect(analyzeQuery('한국어')).toEqual(['한국', '국어']);
  });

  it('returns nothing for punctuation-only input', () => {
    expect(analyzeQuery(' ?!… -- ')).toEqual([]);
    expect(analyzeForIndex('')).toBe('');
  });

  it('answers indexTermsInclude exactly as a lookup in the analysed text would', () => {
    const texts = [
      'Contract CT-2024-0193 renews on 1 March; see CT-2024-0194 for the amendment.',
      'The total was $1,250.50 (about 1250 USD), paid to ACME via order_total_usd.',
      'Ｖ２.１.３ ships with café support; v2.1.3 is current. Wallet 0x7a25f3e9b1 moved.',
      '使用HIP-3协议的p53 variants, TDP-43-induced toxicity and 15-keto-PGE2.',
      '',
    ];
    const queries = [
      'CT-2024-0193',
      'ct 2024',
      '$1,250.50 1250.50',
      'v2.1.3 2.1.3 0x7a25f3',
      'HIP-3 p53 TDP-43 PGE2',
      'cafe 9999',
      'order_total_usd',
    ];
    for (const text of texts) {
      const terms = indexTerms(text);
      for (const query of queries) {
        for (const term of analyzeQuery(query)) {
          const expected = term.endsWith('*')
            ? [...terms].some((t) => t.startsWith(term.slice(0, -1)))
            : terms.has(term);
          expect({ text, term, found: indexTermsInclude(text, [term]) }).toEqual({ text, term, found: expected });
        }
      }
    }
    expect(indexTermsInclude(texts[0] as string, ['ct_2024_0195', 'ct_2024_0194'])).toBe(true);
    expect(indexTermsInclude(texts[0] as string, [])).toBe(false);
  });
});
