import { answerSchema } from '../../../domain/answer.ts';
import { modelOrOffline } from '../../core/model-or-offline.ts';
import { asModelFallback, extractiveAnswer } from '../../offline-qa/extractive-answer.ts';
import { judgeOffline } from '../../offline-qa/judge-offline.ts';
import {
  CITE_BY_ID,
  formatConversation,
  formatEvidence,
  formatMemories,
  formatSupport,
} from '../../core/llm-prompts.ts';
import { repairCitations } from '../../core/model-evidence.ts';
import type { RagNode } from '../rag-deps.ts';
import { queriesOf } from './check-answerability.ts';

/**
 * Writes the answer contract. With a model: zod-validated structured output written from the sentences the
 * answerability judge extracted (by evidence id), the validation errors (and, on a citation retry, why citations were
 * dropped) fed back, bounded retries; citations naming an unknown or wrong id are re-pointed to the chunk that holds
 * their quote, and the citation check drops what still does not hold. A model that still fails is recorded in
 * `errors` and the extractive answer stands in, labelled so. Offline: the extractive answer.
 */
export const generate: RagNode = async (state, deps) => {
  const verdict = state.answerability;
  if (!verdict) throw new Error('rag: generate needs the answerability verdict');
  const question = state.standalone_question || state.question;
  const feedback = state.citation_feedback.length
    ? `\n\nYour previous answer's citations were rejected:\n${state.citation_feedback.map((line) => `- ${line}`).join('\n')}\nCite only chunk_ids listed above, with quotes copied exactly from that chunk.`
    : '';
  const conversation = formatConversation(state.history_summary, state.history);
  // The conversation is context for what the question means, never a source: only evidence may be cited.
  const context = conversation
    ? `Conversation so far (context, not evidence; never cite it):\n${conversation}\n\n`
    : '';
  const needs = Math.max(1, state.sub_questions.length);
  const extracted = verdict.support.length
    ? `Support: the sentences judged to state the answer (write the answer from these, and cite them):\n${formatSupport(verdict.support)}\n\n`
    : '';
  const { value, strategy, errors } = await modelOrOffline(
    deps,
    state.errors,
    {
      node: 'generate',
      schemaName: 'answer',
      schema: answerSchema,
      system:
        'Answer only from the evidence. Cite every claim: each citation names the chunk_id and doc_id of an evidence chunk and quotes its exact words. If the evidence does not state the answer, set answerable to false and list the missing information. ' +
        CITE_BY_ID,
      prompt: `${formatMemories(state.memories)}${context}Evidence:\n${formatEvidence(state.evidence)}\n\n${extracted}Question: ${question}${feedback}`,
    },
    (output) => repairCitations(output, state.evidence).answer,
    // A verdict without supporting sentences (a model that extracted none): the offline answer quotes those its own judgement finds.
    () =>
      extractiveAnswer(
        verdict.support.length > 0 ? verdict : judgeOffline(queriesOf(state), state.evidence),
        state.evidence,
        needs,
      ),
  );
  const fellBack = strategy === 'offline after a model error';
  const answer = fellBack ? asModelFallback(value) : value;
  const kind = strategy === 'model' ? 'answer' : 'extractive answer';
  return {
    update: { answer, errors },
    summary: `${kind} with ${answer.citations.length} citation(s)${fellBack ? ' (after a model error)' : ''}`,
  };
};
