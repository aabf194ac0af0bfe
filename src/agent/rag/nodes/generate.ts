import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { answerSchema, type Answer, type Citation } from '../../../domain/answer.ts';
import { isEvidentError } from '../../../errors/index.ts';
import { generateStructured } from '../../../models/chat/structured-output.ts';
import type { Answerability, Evidence } from '../../core/state.ts';
import { formatConversation, formatEvidence, formatMemories } from '../../core/llm-prompts.ts';
import type { RagNode } from '../rag-deps.ts';

export const OFFLINE_LABEL = '(Offline answer: sentences quoted from the evidence; no language model was used.)';

/** Offline: the supporting sentences themselves, each followed by its citation number. */
export function extractiveAnswer(verdict: Answerability, evidence: readonly Evidence[], needs: number): Answer {
  const byId = new Map(evidence.map((item) => [item.chunk_id, item]));
  const citations: Citation[] = [];
  const parts: string[] = [];
  for (const { chunk_id, sentence } of verdict.support) {
    const chunk = byId.get(chunk_id);
    if (!chunk || citations.some((c) => c.chunk_id === chunk_id && c.quote === sentence)) continue;
    citations.push({ chunk_id, doc_id: chunk.doc_id, source: chunk.source, ...(chunk.page ? { page: chunk.page } : {}), quote: sentence });
    parts.push(`${sentence} [${citations.length}]`);
  }
  const missing = verdict.missing_information.length ? ` Not found in the evidence: ${verdict.missing_information.join('; ')}.` : '';
  const answered = Math.max(0, needs - verdict.missing_information.length);
  return {
    answer: `${parts.join(' ')}${missing} ${OFFLINE_LABEL}`,
    answerable: citations.length > 0,
    confidence: citations.length > 0 ? Math.round((0.4 + 0.4 * (answered / Math.max(1, needs))) * 100) / 100 : 0,
    citations,
    missing_information: [...verdict.missing_information],
  };
}

/**
 * Writes the answer contract. With a model: zod-validated structured output, the validation errors (and, on a
 * citation retry, why citations were dropped) fed back, bounded retries, then a typed failure recorded in
 * `errors` with status `failed`. Offline: the extractive answer.
 */
export const generate: RagNode = async (state, deps) => {
  const verdict = state.answerability;
  if (!verdict) throw new Error('rag: generate needs the answerability verdict');
  if (!deps.chat) {
    const needs = Math.max(1, state.sub_questions.length);
    const answer = extractiveAnswer(verdict, state.evidence, needs);
    return { update: { answer }, summary: `extractive answer with ${answer.citations.length} citation(s)` };
  }
  const question = state.standalone_question || state.question;
  const feedback = state.citation_feedback.length
    ? `\n\nYour previous answer's citations were rejected:\n${state.citation_feedback.map((line) => `- ${line}`).join('\n')}\nCite only chunk_ids listed above, with quotes copied exactly from that chunk.`
    : '';
  const conversation = formatConversation(state.history_summary, state.history);
  // The conversation is context for what the question means, never a source: only evidence may be cited.
  const context = conversation ? `Conversation so far (context, not evidence; never cite it):\n${conversation}\n\n` : '';
  try {
    const answer = await generateStructured({
      model: deps.chat.model,
      schema: answerSchema,
      name: 'answer',
      maxRetries: deps.maxSchemaRetries,
      messages: [
        new SystemMessage(
          'Answer only from the evidence. Cite every claim: each citation names the chunk_id and doc_id of an evidence chunk and quotes its exact words. If the evidence does not state the answer, set answerable to false and list the missing information.',
        ),
        new HumanMessage(`${formatMemories(state.memories)}${context}Evidence:\n${formatEvidence(state.evidence)}\n\nQuestion: ${question}${feedback}`),
      ],
    });
    return { update: { answer }, summary: `answer with ${answer.citations.length} citation(s)` };
  } catch (error) {
    if (!isEvidentError(error)) throw error;
    return {
      update: { answer: null, status: 'failed', errors: [...state.errors, { node: 'generate', code: error.code, message: error.message }] },
      summary: `failed: ${error.code}`,
    };
  }
};
