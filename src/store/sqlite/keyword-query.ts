import { parseSearchTerms, type SearchTerm } from '../search-terms.ts';

/**
 * The FTS5 MATCH expression: an OR of double-quoted terms (with `"` doubled), a trailing `*` outside the quotes
 * for prefixes. Quoting means no term can inject FTS5 syntax (AND, NEAR, column filters, parentheses).
 * A term is written once per count: bm25() sums over the phrases of its query, so that is how FTS5 weighs a term by
 * its query term frequency (the Postgres store multiplies by the count instead).
 */
export const ftsMatch = (terms: readonly SearchTerm[]): string | undefined =>
  terms.length === 0
    ? undefined
    : terms
        .flatMap(({ term, prefix, count }) =>
          Array<string>(count).fill(`"${term.replaceAll('"', '""')}"${prefix ? '*' : ''}`),
        )
        .join(' OR ');

/** `ftsMatch(parseSearchTerms(terms))`. Undefined when no term has any content. */
export const ftsMatchExpression = (terms: readonly string[]): string | undefined => ftsMatch(parseSearchTerms(terms));
