import { answerTurn, type Turn } from '../../core/state.ts';
import type { ControllableNode } from '../controllable-deps.ts';

/** Settles the status and appends the turn to the thread's history. */
export const finalize: ControllableNode = async (state) => {
  const answer = state.answer;
  const status = state.status === 'running' ? (answer?.answerable ? 'answered' : 'refused') : state.status;
  const turns: Turn[] = [{ role: 'user', content: state.question }];
  if (answer) turns.push(answerTurn(state.evidence, answer));
  return {
    update: { status, history: [...state.history, ...turns] },
    summary: `${status}${answer ? `, ${answer.citations.length} citation(s)` : ''}, ${state.past_steps.length} task(s) done`,
  };
};
