/** A chunk the run kept as evidence, as far as scoring citations needs it. */
export interface TraceEvidence {
  chunk_id: string;
  doc_id: string;
  text: string;
}

/** One tool call as the run recorded it. */
export interface TraceToolCall {
  name: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  /** Whether the arguments satisfy the tool's input schema; absent when the agent does not know the schema. */
  arguments_valid?: boolean;
  /** A side effect the run proposed and that waits for an approval: chosen by the agent, not run yet. */
  pending?: boolean;
}

/**
 * What one finished run did, layer by layer, read from its final state for evaluation. `null` means the agent does
 * not expose that layer (it is then reported `n/a`, never scored as a pass or a failure).
 */
export interface AgentTrace {
  standalone_question: string | null;
  /** Doc ids in ranked order before rerank, each once (first occurrence wins). */
  retrieved_doc_ids: string[] | null;
  /** Doc ids of the evidence kept after rerank, in order, each once. */
  kept_doc_ids: string[] | null;
  evidence: TraceEvidence[] | null;
  /** The final answer as the agent left it: validated against the answer contract by the evaluation, not here. */
  answer: unknown;
  tool_calls: TraceToolCall[] | null;
  status: string;
  errors: { node: string; code: string; message: string }[];
}

/** The doc id a chunk id names: chunk ids are `<doc id>#<n>`. */
export const docIdOfChunk = (chunkId: string): string => {
  const hash = chunkId.lastIndexOf('#');
  return hash < 0 ? chunkId : chunkId.slice(0, hash);
};

/** Each id once, in first-seen order. */
export const uniqueInOrder = (ids: readonly string[]): string[] => [...new Set(ids)];
