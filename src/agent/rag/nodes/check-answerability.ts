import { modelOrOffline } from '../../core/model-or-offline.ts';
import { describeMissing } from '../../offline-qa/information-need.ts';
import { JUDGE_SYSTEM, modelJudgementSchema, verdictFromJudgement } from '../../core/model-judgement.ts';
import { judgeOffline } from '../../offline-qa/judge-offline.ts';
import type { Answerability } from '../../../domain/evidence.ts';
import { formatEvidence } from '../../core/llm-prompts.ts';
import type { RagNode } from '../rag-deps.ts';
import type { RagStateType } from '../rag-state.ts';

/** The needs the evidence is judged against: the sub-questions, or the (standalone) question itself. */
export const queriesOf = (state: Pick<RagStateType, 'sub_questions' | 'standalone_question' | 'question'>): string[] =>
  state.sub_questions.length > 0 ? state.sub_questions : [state.standalone_question || state.question];

/**
 * Is the evidence sufficient to answer (not merely related)? No evidence is insufficient without asking a model.
 * With a model: it extracts the sentences that state the answer (by evidence id) and judges their sufficiency; only
 * extracted sentences the evidence contains become `support`, and the verdict is answerable exactly at
 * `isSufficient(sufficiency)`, the threshold the offline judge uses too.
 */
export const checkAnswerability: RagNode = async (state, deps) => {
  const queries = queriesOf(state);
  const question = state.standalone_question || state.question;
  if (state.evidence.length === 0) {
    const missing = queries.map((q) =>
      describeMissing({ question: q, identifiers: [], identifiersFound: false, related: 0, evidence: 0, kind: 'any' }),
    );
    const verdict: Answerability = {
      answerable: false,
      sufficiency: 0,
      reasons: ['no evidence retrieved'],
      missing_information: missing,
      support: [],
    };
    return { update: { answerability: verdict }, summary: `insufficient: ${verdict.reasons.join('; ')}` };
  }
  const { value: verdict, errors } = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'check_answerability',
      schemaName: 'answerability',
      schema: modelJudgementSchema,
      system: JUDGE_SYSTEM,
      prompt: `Question: ${question}${queries.length > 1 ? `\n\nIt asks for:\n${queries.map((q) => `- ${q}`).join('\n')}` : ''}\n\nEvidence:\n${formatEvidence(state.evidence)}`,
    },
    (judged): Answerability => verdictFromJudgement(question, judged, state.evidence),
    () => judgeOffline(queries, state.evidence),
  );
  return {
    update: { answerability: verdict, errors },
    summary: `${verdict.answerable ? 'sufficient' : 'insufficient'} (${verdict.sufficiency.toFixed(2)}, ${verdict.support.length} supporting sentence(s)): ${verdict.reasons.join('; ')}`,
  };
};
