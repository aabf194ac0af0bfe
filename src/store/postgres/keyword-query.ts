import { MAX_QUERY_TERM_COUNT, parseSearchTerms } from '../search-terms.ts';
import { keywordTokens, quoteLexeme } from './keyword-index.ts';

/** One query term as tokens: one token is a term; several (only from odd input) must appear as a phrase. */
export interface QueryTerm {
  tokens: string[];
  prefix: boolean;
  /** Query term frequency (see SearchTerm). */
  count: number;
}

export function parseQueryTerms(terms: readonly string[]): QueryTerm[] {
  return parseSearchTerms(terms).flatMap(({ term, prefix, count }) => {
    const tokens = keywordTokens(term);
    return tokens.length === 0 ? [] : [{ tokens, prefix, count }];
  });
}

/** The tsquery literal matching any of `terms` (a prefix term's last token as a prefix). */
export function matchQuery(terms: readonly QueryTerm[]): string {
  return terms
    .map(({ tokens, prefix }) => {
      const parts = tokens.map((token, i) => quoteLexeme(token) + (prefix && i === tokens.length - 1 ? ':*' : ''));
      return parts.length === 1 ? parts[0] : `(${parts.join(' <-> ')})`;
    })
    .join(' | ');
}

/** A scored unit: one token, exact or prefix, and how often the query gives it. A phrase is scored by its tokens. */
export interface ScoredTerm {
  term: string;
  prefix: boolean;
  count: number;
}

export const scoredTerms = (terms: readonly QueryTerm[]): ScoredTerm[] => {
  const seen = new Map<string, ScoredTerm>();
  for (const { tokens, prefix, count } of terms) {
    tokens.forEach((token, i) => {
      const scored = { term: token, prefix: prefix && i === tokens.length - 1, count };
      const key = `${scored.prefix ? '*' : ' '}${token}`;
      const known = seen.get(key);
      if (known) known.count = Math.min(known.count + count, MAX_QUERY_TERM_COUNT);
      else seen.set(key, scored);
    });
  }
  return [...seen.values()];
};
