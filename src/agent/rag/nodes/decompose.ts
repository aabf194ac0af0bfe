import { z } from 'zod';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { decomposeOffline } from '../../core/offline/decompose-offline.ts';
import type { RagNode } from '../rag-deps.ts';

const decomposeSchema = z.object({ sub_questions: z.array(z.string().min(3)).min(1).max(5) });

/** Splits a question with several information needs into sub-questions; one need stays one question. */
export const decompose: RagNode = async (state, deps) => {
  const question = state.standalone_question || state.question;
  // Both strategies only look at questions that list something; a single need is never sent to the model.
  const listsNeeds = /,|\band\b/i.test(question);
  if (!listsNeeds) return { update: { sub_questions: [question] }, summary: 'skipped: one information need' };
  const { value: subQuestions, errors } = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'decompose',
      schemaName: 'sub_questions',
      schema: decomposeSchema,
      system:
        'If the question asks for several distinct pieces of information, split it into one self-contained question per piece (at most 5). Otherwise return the question unchanged as the only item.',
      prompt: question,
    },
    (result) => result.sub_questions,
    () => decomposeOffline(question),
  );
  return {
    update: { sub_questions: subQuestions, errors },
    summary: subQuestions.length > 1 ? `${subQuestions.length} sub-questions: ${subQuestions.join(' | ')}` : 'skipped: one information need',
  };
};
