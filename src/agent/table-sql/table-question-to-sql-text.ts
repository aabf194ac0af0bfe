import { analyzeQuery } from '../../text/analyzer.ts';

/**
 * Text handling of the offline question→SQL strategy: questions, column names and cells are compared as the same
 * normalised word sequences (NFKC, lowercase, diacritics folded, punctuation as spaces) and, for names, as the
 * keyword analyzer's stemmed terms, so "drivers" names `Driver` and "Škoda" matches "skoda".
 */

const COMBINING_MARKS = /\p{M}+/gu;

/** Lowercase words of `text` with diacritics folded; every other character separates words. */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .normalize('NFD')
      .replace(COMBINING_MARKS, '')
      .normalize('NFC')
      // Thousands separators vanish ("15,000" is 15000); a decimal point between digits stays ("1.80").
      .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
      .replace(/(\d)\.(?=\d)/g, '$1\u0001')
      .split(/[^\p{L}\p{N}\u0001]+/u)
      .filter(Boolean)
      .map((word) => word.replaceAll('\u0001', '.'))
  );
}

/** Words carrying no meaning of their own when matching names and cells. */
export const STOPWORDS = new Set(
  (
    'a an the of in on at to for by per each is are was were be been being what which who whom whose how many much did do does ' +
    'and or with from that this these those there their its as all any our my your me it he she his her they them we us you i ' +
    'has have had will would can could than then'
  ).split(' '),
);

/** Words a question uses around what it asks ("the total number listed in the chart"): never part of a named cell. */
export const CUE_WORDS = new Set([
  ...STOPWORDS,
  ...(
    'listed list chart table name give number total amount times most least highest lowest largest smallest first last next ' +
    'previous after before more less fewer top bottom only same other than not no'
  ).split(' '),
]);

/** Analyzer terms of a name or phrase, without the stopwords' terms. */
export function termsOf(text: string): string[] {
  const stop = new Set([...STOPWORDS].flatMap((word) => analyzeQuery(word)));
  // One letter ("robot's" → robot, s) names nothing.
  return analyzeQuery(wordsOf(text).join(' ')).filter((term) => !stop.has(term) && term.length > 1);
}

/** Related words a column name may use for what a question says (business tables' common vocabulary). */
const SYNONYM_LIST: Record<string, readonly string[]> = {
  amount: ['total', 'value', 'sum', 'spend', 'spent', 'paid', 'revenue'],
  value: ['total', 'amount', 'worth'],
  revenue: ['sales', 'total', 'amount', 'earned', 'income'],
  price: ['cost', 'amount', 'paid'],
  cost: ['price', 'amount', 'spend', 'spent'],
  usd: ['dollar', 'dollars', 'usd', 'spend', 'spent'],
  date: ['day', 'when'],
  client: ['customer'],
  customer: ['client'],
  qty: ['quantity'],
  quantity: ['qty', 'units'],
  height: ['tall', 'taller', 'tallest', 'shortest', 'shorter'],
  age: ['old', 'older', 'oldest', 'young', 'younger', 'youngest'],
  year: ['when'],
  time: ['long', 'longest', 'fastest', 'slowest'],
  location: ['where'],
  venue: ['where'],
  city: ['where'],
  country: ['where', 'nation'],
  nation: ['country'],
  points: ['scored', 'score'],
  attendance: ['attended', 'crowd', 'spectators'],
  population: ['people', 'inhabitants', 'populous'],
  area: ['size', 'large'],
};
/** A Map, so a column named like an object property ("constructor") has no synonyms by accident. */
export const NAME_SYNONYMS: ReadonlyMap<string, readonly string[]> = new Map(Object.entries(SYNONYM_LIST));

/** Terms of a column name plus the terms of its synonyms (each name word's). */
export function nameTermsWithSynonyms(name: string): { own: string[]; related: Set<string> } {
  const own = termsOf(name);
  const related = new Set<string>();
  for (const word of wordsOf(name)) {
    for (const synonym of NAME_SYNONYMS.get(word) ?? NAME_SYNONYMS.get(word.replace(/s$/, '')) ?? [])
      for (const term of analyzeQuery(synonym)) related.add(term);
  }
  return { own, related };
}

/**
 * The leading number of a cell or a question's number: thousands separators and spaces between digit groups
 * dropped ("139 000", "20,699"), a Unicode minus read as minus, currency signs and `#` skipped. `undefined` when
 * the text does not start with a number.
 */
export function leadingNumber(text: string): number | undefined {
  const cleaned = text
    .trim()
    .replace(/^[#$£€¥+~≈]+/, '')
    .replace(/[\u2212\u2013]/g, '-')
    .replace(/(\d)[,\u00a0\u202f ](?=\d{3}(?!\d))/g, '$1');
  const match = /^-?(\d+(?:\.\d+)?|\.\d+)/.exec(cleaned);
  return match ? Number(match[0]) : undefined;
}

/** Four-digit years a cell names ("March 5, 1997", "1983–1984 season", "2005"). */
export function yearsIn(text: string): number[] {
  return [...text.matchAll(/(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)/g)].map((match) => Number(match[1]));
}

/** A word's analyzer term (stemmed), so "wins" matches a cell "Win" and "losses" one "Loss". */
export const termOf = (word: string): string => analyzeQuery(word)[0] ?? word;

/** Whether two words are the same up to one edit (two for long words): "tyrell" for "tyrrell". */
export function nearlySame(a: string, b: string): boolean {
  if (a === b) return true;
  const allowed = Math.min(a.length, b.length) >= 9 ? 2 : Math.min(a.length, b.length) >= 5 ? 1 : 0;
  if (allowed === 0 || Math.abs(a.length - b.length) > allowed || /\d/.test(a) || /\d/.test(b)) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return (previous[b.length] as number) <= allowed;
}
