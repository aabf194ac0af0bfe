import type { ChannelName } from './search.ts';

/** One channel's hit for one sub-question, before merging. */
export interface Candidate {
  query: string;
  channel: ChannelName | 'fused';
  chunk_id: string;
  rank: number;
  score: number;
}

/** A retrieved chunk the run may use and cite (already filtered for the principal by the store). */
export interface Evidence {
  chunk_id: string;
  doc_id: string;
  source: string;
  title: string;
  heading: string;
  page?: number;
  text: string;
  /** Merged score across sub-questions (reciprocal rank fusion of their rankings). */
  score: number;
  /** The sub-questions that retrieved it. */
  queries: string[];
}

export interface Answerability {
  answerable: boolean;
  /** The judged probability that the evidence states the answer; `answerable` is `isSufficient(sufficiency)` (agent/offline-qa/sufficiency.ts). */
  sufficiency: number;
  reasons: string[];
  missing_information: string[];
  /** Sentences judged to answer a need, per sub-question (offline strategy; empty when a model judged). */
  support: { query: string; chunk_id: string; sentence: string }[];
}
