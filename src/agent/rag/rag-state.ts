import { Annotation } from '@langchain/langgraph';
import type { Answer, Citation } from '../../domain/answer.ts';
import { SharedState, value, type Answerability, type Candidate, type Evidence } from '../core/state.ts';

/** `both`: a value computed from the tables and text from the documents, answered together. */
export type Route = 'retrieve' | 'table' | 'both' | 'direct';

/**
 * A sub-question retrieved hop by hop (offline multi-hop): its hops innermost first (`#n` = hop n's answer), the
 * queries each ran with bridges substituted, the bridge entities read from each hop's evidence (with the chunk and
 * sentence naming them, so an answer can cite the bridge), and the resolved last hops, best first.
 */
export interface HopChain {
  question: string;
  hops: { hop: string; queries: string[]; bridges: { text: string; chunk_id: string; sentence: string }[] }[];
  resolved: string[];
}

/**
 * The `rag` graph's explicit state: the shared fields plus rag's own. It is checkpointed per thread, so per-run
 * fields are reset by `load_memory` at the start of every run, while `history` carries the conversation across runs.
 */
export const RagState = Annotation.Root({
  ...SharedState.spec,
  /** Turns older than the window, folded into a bounded running summary (short-term memory beyond the window). */
  history_summary: value<string>(() => ''),
  route: value<Route>(() => 'retrieve'),
  candidates: value<Candidate[]>(() => []),
  /** On the `both` route: the table's answer and the table chunks it cites, joined to the text's answer at the end. */
  table_answer: value<Answer | null>(() => null),
  table_evidence: value<Evidence[]>(() => []),
  /** The hop chains retrieval followed this run (empty for a question that nests nothing). */
  hop_chains: value<HopChain[]>(() => []),
  answerability: value<Answerability | null>(() => null),
  citations: value<Citation[]>(() => []),
  /** Why the citation check dropped citations last time: fed back to the model on retry. */
  citation_feedback: value<string[]>(() => []),
  retry_count: value<number>(() => 0),
});

export type RagStateType = typeof RagState.State;
export type RagUpdate = typeof RagState.Update;
