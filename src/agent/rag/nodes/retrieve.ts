import { isAdmin } from '../../../domain/index.ts';
import type { Candidate } from '../../core/state.ts';
import type { RagNode } from '../rag-deps.ts';

/**
 * Hybrid search per sub-question, as the asking principal (the store filters inside its queries). Each channel's
 * hits and the fused ranking are recorded as candidates; the merge step reads the fused ones.
 */
export const retrieve: RagNode = async (state, deps) => {
  const principal = state.principal;
  if (!principal) throw new Error('rag: retrieve needs the principal');
  const queries = state.sub_questions.length > 0 ? state.sub_questions : [state.standalone_question || state.question];
  const traces = await Promise.all(queries.map((query) => deps.search.search(query, principal, { topK: deps.topK })));
  const candidates: Candidate[] = [];
  traces.forEach((trace, i) => {
    const query = queries[i] as string;
    for (const channel of ['bm25', 'vector'] as const) {
      for (const hit of (trace.channels[channel] ?? []).slice(0, deps.topK)) {
        // A raw channel score (BM25) rests on statistics of documents the principal may not read: non-admins keep its rank.
        candidates.push({ query, channel, chunk_id: hit.chunkId, rank: hit.rank, score: isAdmin(principal) ? hit.score : 1 / hit.rank });
      }
    }
    for (const result of trace.results) {
      candidates.push({ query, channel: 'fused', chunk_id: result.chunk.id, rank: result.rank, score: result.score });
    }
  });
  const counts = traces.map((trace, i) => `"${queries[i]}" → ${trace.results.length}`).join('; ');
  return { update: { candidates }, summary: counts };
};
