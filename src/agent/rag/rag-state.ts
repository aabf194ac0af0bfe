import { Annotation } from '@langchain/langgraph';
import type { Answer } from '../../domain/answer.ts';
import { citationFields, historySummaryField, SharedState, value } from '../core/shared-state.ts';
import type { Answerability, Candidate, Evidence } from '../../domain/evidence.ts';

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
 * The `rag` graph's explicit state: the shared fields, those of the shared nodes, and rag's own. It is checkpointed per thread, so per-run
 * fields are reset by `load_memory` at the start of every run, while `history` carries the conversation across runs.
 */
export const RagState = Annotation.Root({
  ...SharedState.spec,
  ...historySummaryField,
  route: value<Route>(() => 'retrieve'),
  candidates: value<Candidate[]>(() => []),
  /** On the `both` route: the table's answer and the table chunks it cites, joined to the text's answer at the end. */
  table_answer: value<Answer | null>(() => null),
  table_evidence: value<Evidence[]>(() => []),
  /** The hop chains retrieval followed this run (empty for a question that nests nothing). */
  hop_chains: value<HopChain[]>(() => []),
  answerability: value<Answerability | null>(() => null),
  ...citationFields,
});

export type RagStateType = typeof RagState.State;
export type RagUpdate = typeof RagState.Update;

/** rag's own per-run fields as a run starts: load_memory resets them beside the shared ones. */
export const ragRunStart = {
  route: 'retrieve',
  candidates: [],
  hop_chains: [],
  answerability: null,
} satisfies RagUpdate;
