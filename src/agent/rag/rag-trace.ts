import { z } from 'zod';
import type { ChannelHit } from '../../domain/index.ts';
import { reciprocalRankFusion } from '../../retrieval/fuse.ts';
import { docIdOfChunk, uniqueInOrder, type AgentTrace } from '../../runs/run-trace.ts';
import type { Candidate } from '../../domain/evidence.ts';
import type { RagStateType } from './rag-state.ts';
import { tableQueryInputSchema } from '../core/tools/table-query.ts';

/** Input schemas of the tools the `rag` graph calls, to check each recorded call's arguments. */
const RAG_TOOL_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  table_query: tableQueryInputSchema,
  // What save_memory records: the fact to remember (the approved or edited text).
  save_memory: z.object({ text: z.string().trim().min(1) }),
};

/**
 * The ranking before rerank: each sub-question's fused list, merged by reciprocal rank fusion keyed by the
 * sub-question (as merge_rerank merges them, but without cutting to the evidence budget). A run whose search kept
 * no fused list (none today) falls back to the channel hits.
 */
function rankedChunkIds(candidates: readonly Candidate[]): string[] {
  const fused = candidates.filter((candidate) => candidate.channel === 'fused');
  const source = fused.length > 0 ? fused : candidates;
  const lists: Record<string, ChannelHit[]> = {};
  for (const candidate of source) {
    const key = `${candidate.channel}\u0000${candidate.query}`;
    (lists[key] ??= []).push({ chunkId: candidate.chunk_id, rank: candidate.rank, score: candidate.score });
  }
  return reciprocalRankFusion<string>(lists).map((candidate) => candidate.chunkId);
}

/** The `rag` run's layers from its final state. */
export function ragTrace(values: Partial<RagStateType>): AgentTrace {
  const evidence = values.evidence ?? [];
  return {
    standalone_question: values.standalone_question ?? null,
    retrieved_doc_ids: uniqueInOrder(rankedChunkIds(values.candidates ?? []).map(docIdOfChunk)),
    kept_doc_ids: uniqueInOrder(evidence.map((item) => item.doc_id)),
    evidence: evidence.map((item) => ({ chunk_id: item.chunk_id, doc_id: item.doc_id, text: item.text })),
    answer: values.answer ?? null,
    tool_calls: (values.tool_calls ?? []).map((call) => {
      const schema = RAG_TOOL_SCHEMAS[call.name];
      return {
        name: call.name,
        arguments: call.arguments,
        ok: call.ok,
        ...(schema ? { arguments_valid: schema.safeParse(call.arguments).success } : {}),
      };
    }),
    status: values.status ?? 'failed',
    errors: values.errors ?? [],
  };
}
