import type { Answerability, Candidate } from './evidence.ts';
import type { Step, ToolCallRecord } from './step.ts';

/** One channel's hits for one query, as chunk ids (a chunk id starts with its doc id). */
export interface ChannelHits {
  query: string;
  channel: Candidate['channel'];
  chunk_ids: string[];
}

/**
 * A node's completion as it is streamed: the step (node, timings, one-line summary) and what the node decided,
 * so a client can show the run as it happens without reading the whole state.
 */
export interface StepEvent extends Step {
  standalone_question?: string;
  sub_questions?: string[];
  hits?: ChannelHits[];
  evidence?: { chunk_id: string; score: number }[];
  answerability?: Pick<Answerability, 'answerable' | 'reasons' | 'missing_information'>;
  tool_calls?: ToolCallRecord[];
  status?: string;
}

/** The `custom` stream chunk a traced node writes when it completes. */
export interface StepStreamChunk {
  type: 'step';
  event: StepEvent;
}

export const isStepStreamChunk = (value: unknown): value is StepStreamChunk =>
  typeof value === 'object' &&
  value !== null &&
  (value as StepStreamChunk).type === 'step' &&
  typeof (value as StepStreamChunk).event === 'object';
