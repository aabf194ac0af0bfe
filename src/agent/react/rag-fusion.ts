import type { ChannelHit, Principal } from '../../domain/index.ts';
import { isEvidentError } from '../../errors/index.ts';
import { DEFAULT_RRF_K, reciprocalRankFusion } from '../../retrieval/fuse.ts';
import type { Candidate, Evidence } from '../../domain/evidence.ts';
import type { RunError } from '../../domain/step.ts';
import { fusionQueriesByModel, fusionQueriesOffline } from './fusion-queries.ts';
import { evidenceFrom } from '../core/evidence-from.ts';
import type { ReactDeps } from './react-deps.ts';

/** One knowledge_base call: the queries it ran, each query's ranking, and the fused, principal-filtered evidence. */
export interface FusionResult {
  queries: string[];
  /** Each query's own ranking (channel `fused`: hybrid search's fused list for that query). */
  candidates: Candidate[];
  evidence: Evidence[];
  /** A query generation the model failed (the offline queries were used instead). */
  errors: RunError[];
}

/**
 * RAG fusion: several search queries made from the request (by the model, or offline), hybrid retrieval for each as
 * the principal, all rankings fused by reciprocal rank fusion (k = 60), the top `maxEvidence` kept. A chunk several
 * queries found rises; each chunk read back through the principal-filtered store.
 */
export async function ragFusion(request: string, principal: Principal, deps: ReactDeps): Promise<FusionResult> {
  const errors: RunError[] = [];
  let queries = fusionQueriesOffline(request, deps.fusionQueries);
  if (deps.chat && deps.fusionQueries > 1) {
    try {
      queries = await fusionQueriesByModel(request, deps.fusionQueries, deps.chat.model, deps.maxSchemaRetries);
    } catch (error) {
      if (!isEvidentError(error)) throw error;
      errors.push({
        node: 'knowledge_base',
        code: error.code,
        message: `${error.message} (the offline queries were used)`,
      });
    }
  }
  if (queries.length === 0) queries = [request.trim()];
  const traces = await Promise.all(
    queries.map((query) => deps.search.search(query, principal, { topK: deps.fusionDepth })),
  );
  const lists: Record<string, ChannelHit[]> = {};
  const candidates: Candidate[] = [];
  traces.forEach((trace, i) => {
    const query = queries[i] as string;
    lists[`q${i}`] = trace.results.map((result) => ({
      chunkId: result.chunk.id,
      rank: result.rank,
      score: result.score,
    }));
    for (const result of trace.results)
      candidates.push({ query, channel: 'fused', chunk_id: result.chunk.id, rank: result.rank, score: result.score });
  });
  const fused = reciprocalRankFusion(lists, { k: DEFAULT_RRF_K }).slice(0, deps.maxEvidence);
  const chunks = new Map(
    (
      await deps.store.getChunks(
        fused.map((item) => item.chunkId),
        principal,
      )
    ).map((chunk) => [chunk.id, chunk]),
  );
  const evidence: Evidence[] = [];
  for (const item of fused) {
    const chunk = chunks.get(item.chunkId);
    if (!chunk) continue;
    evidence.push(
      evidenceFrom(
        chunk,
        item.score,
        Object.keys(item.channels).map((key) => queries[Number(key.slice(1))] as string),
      ),
    );
  }
  return { queries, candidates, evidence, errors };
}

/** The run's evidence after another call: earlier chunks stay citable; a chunk found again keeps its best score. */
export function mergeEvidence(current: readonly Evidence[], found: readonly Evidence[]): Evidence[] {
  const byId = new Map(current.map((item) => [item.chunk_id, item]));
  for (const item of found) {
    const known = byId.get(item.chunk_id);
    byId.set(
      item.chunk_id,
      known
        ? {
            ...known,
            score: Math.max(known.score, item.score),
            queries: [...new Set([...known.queries, ...item.queries])],
          }
        : item,
    );
  }
  return [...byId.values()].sort((a, b) => b.score - a.score);
}
