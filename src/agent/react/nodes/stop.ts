import { refusal } from '../../../domain/answer.ts';
import { informationNeed } from '../../offline-qa/information-need.ts';
import type { ReactNode } from '../react-deps.ts';

/** The iteration bound was reached without a final answer: a refusal that still fills the answer contract. */
export const stop: ReactNode = async (state, deps) => {
  const question = state.standalone_question || state.question;
  const answer = refusal(
    [informationNeed(question)],
    `The agent stopped after ${state.iterations} iterations without a final answer.`,
  );
  return {
    update: { answer, status: 'refused' },
    summary: `stopped at the bound of ${deps.maxIterations} iterations: refused`,
  };
};
