/** One analysed query term; `prefix` when the caller wrote it with a trailing `*`. */
export interface SearchTerm {
  term: string;
  prefix: boolean;
}

/**
 * Normalises the terms a keyword search is given, the same on every backend: strips the `*` marker, drops terms
 * without token characters and duplicates.
 */
export function parseSearchTerms(terms: readonly string[]): SearchTerm[] {
  const out: SearchTerm[] = [];
  const seen = new Set<string>();
  for (const raw of terms) {
    const prefix = raw.endsWith('*');
    const term = (prefix ? raw.replace(/\*+$/, '') : raw).trim();
    // A term the tokenizer reduces to nothing would make the index reject or ignore the query; drop it here.
    if (!/[\p{L}\p{N}_$.]/u.test(term)) continue;
    const key = `${prefix ? '*' : ' '}${term}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ term, prefix });
  }
  return out;
}
