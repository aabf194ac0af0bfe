import { answerTurn, type Turn } from '../../core/state.ts';
import type { RagNode } from '../rag-deps.ts';

/** Settles the status and appends the turn to the thread's history (what the next run's rewrite reads). */
export const finalize: RagNode = async (state) => {
  const answer = state.answer;
  const status = state.status === 'running' ? (answer?.answerable ? 'answered' : 'refused') : state.status;
  const turns: Turn[] = [{ role: 'user', content: state.question }];
  if (answer) turns.push(answerTurn(state.evidence, answer));
  return {
    update: { status, citations: answer?.citations ?? [], history: [...state.history, ...turns] },
    summary: `${status}${answer ? `, ${answer.citations.length} citation(s)` : ''}`,
  };
};
