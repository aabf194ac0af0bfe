/** One analysed query term; `prefix` when the caller wrote it with a trailing `*`. */
export interface SearchTerm {
  term: string;
  prefix: boolean;
  /**
   * How many times the query gave the term (its query term frequency, at most MAX_QUERY_TERM_COUNT): BM25 multiplies
   * the term's weight by it, on every backend.
   */
  count: number;
}

/**
 * A repeated term counts at most this often: a bound on how long an index query a repeated word can make, and on how
 * far that word alone can decide the ranking (Robertson's k3 saturation, kept to integers, which FTS5 can express).
 * Measured with counts 1 / 2 / 3 / unbounded: CACM dev nDCG@10 0.456 / 0.474 / 0.476 / 0.477, SciFact train
 * 0.7031 / 0.7009 / 0.7009 / 0.7009 (FTS5 porter: 0.469, 0.6987).
 */
export const MAX_QUERY_TERM_COUNT = 3;

/**
 * Normalises the terms a keyword search is given, the same on every backend: strips the `*` marker, drops terms
 * without token characters, and merges repeats into one term with its count, in order of first appearance.
 */
export function parseSearchTerms(terms: readonly string[]): SearchTerm[] {
  const byKey = new Map<string, SearchTerm>();
  for (const raw of terms) {
    const prefix = raw.endsWith('*');
    const term = (prefix ? raw.replace(/\*+$/, '') : raw).trim();
    // A term the tokenizer reduces to nothing would make the index reject or ignore the query; drop it here.
    if (!/[\p{L}\p{N}_$.]/u.test(term)) continue;
    const key = `${prefix ? '*' : ' '}${term}`;
    const known = byKey.get(key);
    if (known) known.count = Math.min(known.count + 1, MAX_QUERY_TERM_COUNT);
    else byKey.set(key, { term, prefix, count: 1 });
  }
  return [...byKey.values()];
}
