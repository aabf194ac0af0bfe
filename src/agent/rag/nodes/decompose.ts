import { z } from 'zod';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { decomposeOffline } from '../../offline-qa/decompose-offline.ts';
import type { RagNode } from '../rag-deps.ts';

const decomposeSchema = z.object({ sub_questions: z.array(z.string().min(3)).min(1).max(5) });

/** Offline: only a question that lists something is looked at by the heuristic splitter. */
export const listsNeeds = (question: string): boolean => /,|\band\b/i.test(question);

/**
 * Splits a question with several information needs into sub-questions; one need stays one question. With a model,
 * the model decides whether and how to split every question (a multi-hop question, or one in another language, lists
 * nothing a pattern could see); an empty or repeated answer is read as one need. Offline, the heuristic splitter looks
 * only at questions that list something.
 */
export const decompose: RagNode = async (state, deps) => {
  const question = state.standalone_question || state.question;
  if (!deps.chat && !listsNeeds(question))
    return { update: { sub_questions: [question] }, summary: 'skipped: one information need' };
  const {
    value: subQuestions,
    strategy,
    errors,
  } = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'decompose',
      schemaName: 'sub_questions',
      schema: decomposeSchema,
      system:
        'Plan the retrieval for the question. If it asks for several distinct pieces of information, split it into one self-contained question per piece (at most 5). ' +
        'If answering it needs a fact that must be found first (a bridge: "the founder of the company that makes X"), list the question for that fact first, then the question that uses it. ' +
        'Otherwise return the question unchanged as the only item. Keep the language of the question.',
      prompt: `Question: ${question}`,
    },
    (result) => distinct(result.sub_questions, question),
    () => decomposeOffline(question),
  );
  return {
    update: { sub_questions: subQuestions, errors },
    summary:
      subQuestions.length > 1
        ? `${subQuestions.length} sub-questions (${strategy}): ${subQuestions.join(' | ')}`
        : `one information need (${strategy})`,
  };
};

/** The model's sub-questions, trimmed and each once; none left is the question itself. */
function distinct(subQuestions: readonly string[], question: string): string[] {
  const seen = new Set<string>();
  const kept = subQuestions
    .map((q) => q.trim())
    .filter((q) => q && !seen.has(q.toLowerCase()) && seen.add(q.toLowerCase()));
  return kept.length > 0 ? kept : [question];
}
