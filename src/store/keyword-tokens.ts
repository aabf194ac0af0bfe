/**
 * Splits like FTS5's `unicode61` with `tokenchars '_$.'`: letters, digits, private use and `_ $ .` make tokens. Both
 * stores index keyword text this way (SQLite's FTS5 table and its block postings, PostgreSQL's tsvector and postings),
 * so they find and count the same terms.
 */
const SEPARATORS = /[^\p{L}\p{N}\p{Co}_$.]+/u;

/** The tokens of a keyword text (lowercased as unicode61 folds them), in order. */
export const keywordTokens = (text: string): string[] =>
  text
    .split(SEPARATORS)
    .filter(Boolean)
    .map((token) => token.toLowerCase());
