/** Graded relevance judgements of one query: doc id → gain (> 0 means relevant). */
export type Judgements = ReadonlyMap<string, number>;

/** nDCG@k with the judgements' grades as gains (the BEIR / trec_eval definition, log2 discount). */
export function ndcgAt(ranked: readonly string[], judgements: Judgements, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + (judgements.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...judgements.values()]
    .filter((gain) => gain > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Fraction of the relevant documents found in the first k. */
export function recallAt(ranked: readonly string[], judgements: Judgements, k: number): number {
  const relevant = [...judgements].filter(([, gain]) => gain > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** Reciprocal rank of the first relevant document within the first k (0 if none). */
export function mrrAt(ranked: readonly string[], judgements: Judgements, k: number): number {
  const index = ranked.slice(0, k).findIndex((id) => (judgements.get(id) ?? 0) > 0);
  return index < 0 ? 0 : 1 / (index + 1);
}

/** Whether any relevant document is within the first k. */
export const hitAt = (ranked: readonly string[], judgements: Judgements, k: number): number =>
  ranked.slice(0, k).some((id) => (judgements.get(id) ?? 0) > 0) ? 1 : 0;

export const mean = (values: readonly number[]): number =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/** Nearest-rank percentile of a sample (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
