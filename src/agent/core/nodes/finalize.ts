import type { Answer } from '../../../domain/answer.ts';
import { answerTurn } from '../shared-state.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { RunStatus } from '../../../domain/run-state.ts';
import type { Turn } from '../../../domain/turn.ts';

/** What finalize reads of a run: the question, the thread's history, and what the run found and answered. */
export interface FinishedRun {
  question: string;
  history: Turn[];
  evidence: Evidence[];
  answer: Answer | null;
  status: RunStatus;
}

/** Settles the status and appends the turn to the thread's history (what the next run's rewrite reads). */
export async function finalize(state: FinishedRun) {
  const answer = state.answer;
  const status: RunStatus = state.status === 'running' ? (answer?.answerable ? 'answered' : 'refused') : state.status;
  const turns: Turn[] = [{ role: 'user', content: state.question }];
  if (answer) turns.push(answerTurn(state.evidence, answer));
  return {
    update: { status, citations: answer?.citations ?? [], history: [...state.history, ...turns] },
    summary: `${status}${answer ? `, ${answer.citations.length} citation(s)` : ''}`,
  };
}
