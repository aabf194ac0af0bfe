import type { Answerability, Candidate, SharedStateType, Step, ToolCallRecord } from './state.ts';

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

function hitsOf(candidates: readonly Candidate[]): ChannelHits[] {
  const groups = new Map<string, ChannelHits>();
  for (const candidate of [...candidates].sort((a, b) => a.rank - b.rank)) {
    const key = `${candidate.query}\u0000${candidate.channel}`;
    const group = groups.get(key) ?? { query: candidate.query, channel: candidate.channel, chunk_ids: [] };
    group.chunk_ids.push(candidate.chunk_id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** What a node may write that a step event shows: the shared fields, and the retrieval fields agents that rank write. */
export type StepUpdate = Partial<SharedStateType> & { candidates?: Candidate[]; answerability?: Answerability | null };

/** The step plus the parts of the node's update a client shows; fields a node did not write are left out. */
export function stepEventOf(step: Step, update: StepUpdate): StepEvent {
  const event: StepEvent = { ...step };
  if (step.node === 'rewrite' && update.standalone_question) event.standalone_question = update.standalone_question;
  if (step.node === 'decompose' && update.sub_questions?.length) event.sub_questions = update.sub_questions;
  if (update.candidates?.length) event.hits = hitsOf(update.candidates);
  if (update.evidence?.length)
    event.evidence = update.evidence.map((item) => ({ chunk_id: item.chunk_id, score: item.score }));
  if (update.answerability) {
    const { answerable, reasons, missing_information } = update.answerability;
    event.answerability = { answerable, reasons, missing_information };
  }
  if (update.tool_calls?.length) event.tool_calls = update.tool_calls;
  if (update.status && update.status !== 'running') event.status = update.status;
  return event;
}
