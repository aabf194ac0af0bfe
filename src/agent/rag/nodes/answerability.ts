import { z } from 'zod';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { describeMissing, missingFromVerdict } from '../../core/information-need.ts';
import { judgeOffline } from '../../core/offline/judge-offline.ts';
import type { Answerability } from '../../core/state.ts';
import { formatEvidence } from '../../core/llm-prompts.ts';
import type { RagNode } from '../rag-deps.ts';
import type { RagStateType } from '../rag-state.ts';

const verdictSchema = z.object({
  answerable: z.boolean(),
  reasons: z.array(z.string()),
  missing_information: z.array(z.string()),
});

/** The needs the evidence is judged against: the sub-questions, or the (standalone) question itself. */
export const queriesOf = (state: Pick<RagStateType, 'sub_questions' | 'standalone_question' | 'question'>): string[] =>
  state.sub_questions.length > 0 ? state.sub_questions : [state.standalone_question || state.question];

/** Is the evidence sufficient to answer (not merely related)? No evidence is insufficient without asking a model. */
export const answerability: RagNode = async (state, deps) => {
  const queries = queriesOf(state);
  const question = state.standalone_question || state.question;
  if (state.evidence.length === 0) {
    const missing = queries.map((q) => describeMissing({ question: q, identifiers: [], identifiersFound: false, related: 0, evidence: 0, kind: 'any' }));
    const verdict: Answerability = { answerable: false, sufficiency: 0, reasons: ['no evidence retrieved'], missing_information: missing, support: [] };
    return { update: { answerability: verdict }, summary: `insufficient: ${verdict.reasons.join('; ')}` };
  }
  const { value: verdict, errors } = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'check_answerability',
      schemaName: 'answerability',
      schema: verdictSchema,
      system:
        'Decide whether the evidence is SUFFICIENT to answer the question: it must state the answer, not merely mention the topic. ' +
        'In reasons, say what the evidence does state. In missing_information, name each missing fact as a noun phrase with what the ' +
        'evidence shows instead, e.g. "the termination fee of CT-2023-0077 (the evidence mentions CT-2023-0077 but states no termination fee)"; never repeat the question.',
      prompt: `Question: ${question}\n\nEvidence:\n${formatEvidence(state.evidence)}`,
    },
    (result): Answerability => ({ ...result, sufficiency: result.answerable ? 1 : 0, missing_information: missingFromVerdict(question, result), support: [] }),
    () => judgeOffline(queries, state.evidence),
  );
  return {
    update: { answerability: verdict, errors },
    summary: `${verdict.answerable ? 'sufficient' : 'insufficient'}: ${verdict.reasons.join('; ')}`,
  };
};
