import type { Answer, Citation } from '../../domain/answer.ts';
import type { Answerability, Evidence } from '../../domain/evidence.ts';
import { answerSpans } from './reader.ts';

/** Spans an answer leads with per need: enough for a list of values, few enough to stay a direct answer. */
const LEAD_SPANS = 3;

export const OFFLINE_LABEL = '(Offline answer: sentences quoted from the evidence; no language model was used.)';

/** The values of the asked kind the supporting sentences state, per need in order, each once. */
function leadOf(support: Answerability['support']): string {
  const byNeed = new Map<string, string[]>();
  for (const { query, sentence } of support) {
    const found = byNeed.get(query) ?? [];
    for (const span of answerSpans(query, sentence))
      if (!found.includes(span.text) && found.length < LEAD_SPANS) found.push(span.text);
    byNeed.set(query, found);
  }
  // Needs that read the same values from the same sentence lead with them once.
  const parts = [...new Set([...byNeed.values()].filter((spans) => spans.length > 0).map((spans) => spans.join(', ')))];
  return parts.length > 0 ? `${parts.join('; ')}. ` : '';
}

/** Offline: the values asked for (when the question asks for a kind of value), then the supporting sentences, each followed by its citation number. */
export function extractiveAnswer(verdict: Answerability, evidence: readonly Evidence[], needs: number): Answer {
  const byId = new Map(evidence.map((item) => [item.chunk_id, item]));
  const citations: Citation[] = [];
  const parts: string[] = [];
  for (const { chunk_id, sentence } of verdict.support) {
    const chunk = byId.get(chunk_id);
    if (!chunk || citations.some((c) => c.chunk_id === chunk_id && c.quote === sentence)) continue;
    citations.push({
      chunk_id,
      doc_id: chunk.doc_id,
      source: chunk.source,
      ...(chunk.page ? { page: chunk.page } : {}),
      quote: sentence,
    });
    parts.push(`${sentence} [${citations.length}]`);
  }
  const missing = verdict.missing_information.length
    ? ` Not found in the evidence: ${verdict.missing_information.join('; ')}.`
    : '';
  const answered = Math.max(0, needs - verdict.missing_information.length);
  return {
    answer: `${citations.length > 0 ? leadOf(verdict.support) : ''}${parts.join(' ')}${missing} ${OFFLINE_LABEL}`,
    answerable: citations.length > 0,
    confidence: citations.length > 0 ? Math.round((0.4 + 0.4 * (answered / Math.max(1, needs))) * 100) / 100 : 0,
    citations,
    missing_information: [...verdict.missing_information],
  };
}

export const FALLBACK_LABEL =
  '(Answer quoted from the evidence: the language model failed on this step; see the run errors.)';

/** The extractive answer relabelled where it stood in for a configured model that failed: no model was not the reason. */
export const asModelFallback = (answer: Answer): Answer => ({
  ...answer,
  answer: answer.answer.replace(OFFLINE_LABEL, FALLBACK_LABEL),
});
