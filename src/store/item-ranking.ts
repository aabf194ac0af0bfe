import { analyzeForIndex, analyzeQuery } from '../text/analyzer.ts';

/**
 * How a query ranks memories and Store API items, the same on every backend (the candidates are the caller's readable
 * items, chosen in SQL; this orders them). Two channels, as document retrieval has:
 * - vector: the cosine similarity of the item's vector and the query's (0 when the item has none of that dimension:
 *   an item embedded by an earlier embedder stays findable by its words);
 * - keyword: the share of the query's distinct terms (analysed as the keyword index analyses them: stems, identifier
 *   compounds, CJK bigrams; prose stopwords left out) that the item's text holds.
 * The score is the larger of the two, so either channel alone can find an item (a paraphrase by its vector, an
 * identifier or a name by its words), and it reads as a similarity in 0..1: the agents' recall floor
 * (`agents.*.memoryFloor`) applies to it. Ties go to the item both channels agree on, then the newest.
 */
export interface RankedQuery {
  terms: string[];
  vector?: Float32Array;
}

export const rankedQuery = (text: string, vector?: Float32Array): RankedQuery => ({
  terms: analyzeQuery(text),
  ...(vector ? { vector } : {}),
});

export interface Relevance {
  score: number;
  vector: number;
  keyword: number;
}

/** The distinct index terms of a text, joined by spaces: what an item stores to be ranked without analysing it again. */
export const indexTermsOf = (text: string): string =>
  [...new Set(analyzeForIndex(text).split(' '))].filter(Boolean).join(' ');

/** `terms`: the item's stored index terms (`indexTermsOf`); rows written before they were stored pass their text. */
export function relevanceOf(
  query: RankedQuery,
  terms: { terms: string } | { text: string },
  vector: Float32Array | undefined,
): Relevance {
  const cosine = query.vector && vector ? cosineOf(query.vector, vector) : 0;
  const keyword = keywordCoverage(query.terms, 'terms' in terms ? terms.terms : indexTermsOf(terms.text));
  const vectorScore = Math.max(0, Math.min(1, cosine));
  return { score: Math.max(vectorScore, keyword), vector: vectorScore, keyword };
}

/** Orders by score, then by both channels' sum, then by the given tiebreak (newest first). */
export function byRelevance<T extends { relevance: Relevance; tiebreak: string }>(a: T, b: T): number {
  return (
    b.relevance.score - a.relevance.score ||
    b.relevance.vector + b.relevance.keyword - (a.relevance.vector + a.relevance.keyword) ||
    (a.tiebreak < b.tiebreak ? 1 : a.tiebreak > b.tiebreak ? -1 : 0)
  );
}

/** The share of the query's terms among the item's (space-joined) terms; a term ending in `*` is a prefix. */
function keywordCoverage(terms: readonly string[], indexed: string): number {
  if (terms.length === 0 || indexed.length === 0) return 0;
  const padded = ` ${indexed} `;
  let found = 0;
  for (const term of terms) {
    const prefix = term.endsWith('*');
    if (padded.includes(prefix ? ` ${term.slice(0, -1)}` : ` ${term} `)) found++;
  }
  return found / terms.length;
}

function cosineOf(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  const norms = Math.sqrt(na) * Math.sqrt(nb);
  return norms > 0 ? dot / norms : 0;
}
