import type { Answerability, Candidate } from '../../domain/evidence.ts';
import type { ChannelHits, StepEvent } from '../../domain/step-event.ts';
import type { Step } from '../../domain/step.ts';
import type { SharedStateType } from './shared-state.ts';

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
