/** One analysed query term; `prefix` when the caller wrote it with a trailing `*`. */
export interface FtsTerm {
  term: string;
  prefix: boolean;
}

/** Normalises query terms: strips the `*` marker, drops terms without token characters and duplicates. */
export function parseFtsTerms(terms: readonly string[]): FtsTerm[] {
  const out: FtsTerm[] = [];
  const seen = new Set<string>();
  for (const raw of terms) {
    const prefix = raw.endsWith('*');
    const term = (prefix ? raw.replace(/\*+$/, '') : raw).trim();
    // A term the tokenizer reduces to nothing would make FTS5 reject or ignore the query; drop it here.
    if (!/[\p{L}\p{N}_$.]/u.test(term)) continue;
    const key = `${prefix ? '*' : ' '}${term}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ term, prefix });
  }
  return out;
}

/**
 * The FTS5 MATCH expression: an OR of double-quoted terms (with `"` doubled), a trailing `*` outside the quotes
 * for prefixes. Quoting means no term can inject FTS5 syntax (AND, NEAR, column filters, parentheses).
 */
export const ftsMatch = (terms: readonly FtsTerm[]): string | undefined =>
  terms.length === 0
    ? undefined
    : terms.map(({ term, prefix }) => `"${term.replaceAll('"', '""')}"${prefix ? '*' : ''}`).join(' OR ');

/** `ftsMatch(parseFtsTerms(terms))`. Undefined when no term has any content. */
export const ftsMatchExpression = (terms: readonly string[]): string | undefined => ftsMatch(parseFtsTerms(terms));
