import { keywordTokens } from '../../keyword-tokens.ts';

/** One chunk's keyword text as the postings keep it: each distinct term with its count, and the token total. */
export interface ChunkTerms {
  /** Occurrences of each distinct term: BM25's term frequency. */
  tf: Map<string, number>;
  /** Tokens in the text: BM25's document length (FTS5's column size). */
  length: number;
}

export function chunkTerms(keywordText: string): ChunkTerms {
  const tf = new Map<string, number>();
  const tokens = keywordTokens(keywordText);
  for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
  return { tf, length: tokens.length };
}

/**
 * The single token FTS5 makes of a query term, or undefined when it makes several (FTS5 then matches them as a
 * phrase, which the postings cannot answer) or none.
 */
export function queryToken(term: string): string | undefined {
  const tokens = keywordTokens(term);
  return tokens.length === 1 ? tokens[0] : undefined;
}
