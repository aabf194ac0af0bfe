import { parseSearchTerms, type SearchTerm } from '../search-terms.ts';

/**
 * The FTS5 MATCH expression: an OR of double-quoted terms (with `"` doubled), a trailing `*` outside the quotes
 * for prefixes. Quoting means no term can inject FTS5 syntax (AND, NEAR, column filters, parentheses).
 */
export const ftsMatch = (terms: readonly SearchTerm[]): string | undefined =>
  terms.length === 0
    ? undefined
    : terms.map(({ term, prefix }) => `"${term.replaceAll('"', '""')}"${prefix ? '*' : ''}`).join(' OR ');

/** `ftsMatch(parseSearchTerms(terms))`. Undefined when no term has any content. */
export const ftsMatchExpression = (terms: readonly string[]): string | undefined => ftsMatch(parseSearchTerms(terms));
