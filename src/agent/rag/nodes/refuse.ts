import { refusal } from '../../../domain/answer.ts';
import { informationNeed } from '../../offline-qa/information-need.ts';
import type { RagNode } from '../rag-deps.ts';

/** The evidence is not sufficient: say so, and what is missing. */
export const refuse: RagNode = async (state) => {
  const verdict = state.answerability;
  const missing = verdict?.missing_information.length
    ? verdict.missing_information
    : [informationNeed(state.standalone_question || state.question)];
  return { update: { answer: refusal(missing), status: 'refused' }, summary: `refused: ${missing.join('; ')}` };
};
