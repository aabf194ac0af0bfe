import { keywordTokens } from '../keyword-tokens.ts';

/**
 * The keyword channel on Postgres. Evident analyses text itself (text/analyzer.ts), so the index stores those
 * terms verbatim: a `tsvector` is built here from the analysed text (never by `to_tsvector`, whose parser would
 * split `ct_2024_0193`, `v1.2` or `$total`; it also matches phrases), and the postings (term, row, term frequency,
 * row length) are packed into blocks per term (keyword-blocks.ts, posting-codec.ts). Ranking is FTS5's BM25,
 * computed by the store over the postings of the query's terms (each weighed by its query term frequency, as FTS5
 * weighs a phrase its query repeats) with statistics the store keeps in step with every write (`keyword_terms`,
 * `keyword_totals`): `ts_rank` is not BM25 and would rank differently from SQLite. This module is the index (its rows and postings); the query side is
 * keyword-query.ts, the statistics term-stats.ts, the ranking keyword-ranking.ts.
 */

/** The three keyword-searchable corpora; their statistics are kept apart. */
export const CORPUS = { chunks: 1, summaries: 2, quotes: 3 } as const;
export type Corpus = (typeof CORPUS)[keyof typeof CORPUS];

/** A tsvector keeps positions up to 16383 and at most 256 per lexeme. */
const MAX_POSITION = 16_383;

export { keywordTokens };

/** Quotes a lexeme for tsvector/tsquery input, which takes quoted lexemes verbatim (no parsing, no stemming). */
export const quoteLexeme = (lexeme: string): string => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

export interface KeywordDocument {
  /** tsvector literal with each term's positions, so term frequency survives. */
  tsvector: string;
  /** Tokens in the text: BM25's document length. */
  length: number;
  /** Distinct terms, for the document-frequency statistics. */
  terms: string[];
  /** Occurrences of each distinct term, parallel to `terms`: the postings' term frequencies. */
  tf: number[];
}

export function keywordDocument(text: string): KeywordDocument {
  const positions = new Map<string, number[]>();
  const tokens = keywordTokens(text);
  tokens.forEach((token, i) => {
    const list = positions.get(token) ?? [];
    list.push(Math.min(i + 1, MAX_POSITION));
    positions.set(token, list);
  });
  const tsvector = [...positions]
    .map(([lexeme, at]) => `${quoteLexeme(lexeme)}:${[...new Set(at)].join(',')}`)
    .join(' ');
  return {
    tsvector,
    length: tokens.length,
    terms: [...positions.keys()],
    tf: [...positions.values()].map((at) => at.length),
  };
}

export interface KeywordTable {
  corpus: Corpus;
  /** The table holding `keyword` and `keyword_length`, with `pk` and `doc_pk`. */
  table: string;
}

/** The upper bound of a prefix range in bytewise order (terms are stored `COLLATE "C"`). */
export const PREFIX_END = String.fromCodePoint(0x10ffff);
