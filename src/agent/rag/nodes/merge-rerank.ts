import type { Evidence } from '../../../domain/evidence.ts';
import { evidenceFrom } from '../../core/evidence-from.ts';
import type { RagNode } from '../rag-deps.ts';

const RRF_K = 60;

/**
 * Merges the sub-questions' fused rankings by reciprocal rank fusion, so a chunk several needs retrieved rises,
 * then keeps the best `maxEvidence`. Texts are read back through the principal-filtered store.
 */
export const mergeRerank: RagNode = async (state, deps) => {
  const principal = state.principal;
  if (!principal) throw new Error('rag: merge needs the principal');
  const merged = new Map<string, { score: number; queries: Set<string>; best: number }>();
  for (const candidate of state.candidates) {
    if (candidate.channel !== 'fused') continue;
    const entry = merged.get(candidate.chunk_id) ?? {
      score: 0,
      queries: new Set<string>(),
      best: Number.POSITIVE_INFINITY,
    };
    entry.score += 1 / (RRF_K + candidate.rank);
    entry.queries.add(candidate.query);
    entry.best = Math.min(entry.best, candidate.rank);
    merged.set(candidate.chunk_id, entry);
  }
  // Each sub-question keeps its best hits even when another need retrieved many strong chunks.
  const ranked = [...merged.entries()].sort((a, b) => b[1].score - a[1].score || a[1].best - b[1].best);
  const chunks = await deps.store.getChunks(
    ranked.slice(0, deps.maxEvidence).map(([id]) => id),
    principal,
  );
  const byId = new Map(chunks.map((chunk) => [chunk.id, chunk]));
  const evidence: Evidence[] = [];
  for (const [id, entry] of ranked.slice(0, deps.maxEvidence)) {
    const chunk = byId.get(id);
    if (!chunk) continue;
    evidence.push(evidenceFrom(chunk, entry.score, [...entry.queries]));
  }
  return {
    update: { evidence },
    summary: `${evidence.length} evidence chunks: ${evidence.map((e) => e.chunk_id).join(', ')}`,
  };
};
