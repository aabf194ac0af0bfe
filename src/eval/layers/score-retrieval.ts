import { hitAt, mrrAt, recallAt } from '../metrics/ranking-metrics.ts';
import { notExpected, notExposed, passOrFail, type LayerResult } from './layer-result.ts';
import { quoteList } from './score-rewrite.ts';

/** Depth of the ranking before rerank that retrieval is judged on. */
export const RETRIEVAL_K = 10;
/** Depth of the kept evidence that rerank is judged on. */
export const RERANK_K = 5;

const judgementsOf = (relevant: readonly string[]) => new Map(relevant.map((id) => [id, 1]));

/**
 * Retrieval before rerank: hit@k, recall@k and MRR of the relevant docs in the ranked doc ids. It passes when every
 * relevant doc is within the first k, since a doc that never reaches the candidates cannot be recovered later.
 */
export function scoreRetrieval(
  relevant: readonly string[] | undefined,
  ranked: readonly string[] | null,
  k = RETRIEVAL_K,
): LayerResult {
  if (!relevant?.length) return notExpected;
  if (ranked === null) return notExposed;
  const judgements = judgementsOf(relevant);
  const metrics = {
    [`hit_at_${k}`]: hitAt(ranked, judgements, k),
    [`recall_at_${k}`]: recallAt(ranked, judgements, k),
    [`mrr_at_${k}`]: mrrAt(ranked, judgements, k),
  };
  const top = new Set(ranked.slice(0, k));
  const missing = relevant.filter((id) => !top.has(id));
  return passOrFail(
    missing.length === 0,
    missing.length ? `not in the first ${k}: ${quoteList(missing)}` : `all ${relevant.length} in the first ${k}`,
    metrics,
  );
}

/** Rerank: the relevant docs must all be among the first `k` docs kept as evidence; hit@k and recall@k are reported. */
export function scoreRerank(
  relevant: readonly string[] | undefined,
  kept: readonly string[] | null,
  k = RERANK_K,
): LayerResult {
  if (!relevant?.length) return notExpected;
  if (kept === null) return notExposed;
  const judgements = judgementsOf(relevant);
  const metrics = { [`hit_at_${k}`]: hitAt(kept, judgements, k), [`recall_at_${k}`]: recallAt(kept, judgements, k) };
  const top = new Set(kept.slice(0, k));
  const missing = relevant.filter((id) => !top.has(id));
  return passOrFail(
    missing.length === 0,
    missing.length ? `not kept in the first ${k}: ${quoteList(missing)}` : `all ${relevant.length} kept`,
    metrics,
  );
}
