import { checkCitations, refusal, type Answer } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';

/** What the citation check reads: the answer, the run's evidence, and how often the answer was already retried. */
export interface CitableRun {
  answer: Answer | null;
  evidence: readonly Evidence[];
  retry_count: number;
}

/**
 * Keeps only citations that name evidence this run retrieved for this principal and whose quote occurs in that
 * chunk. When an answer loses every citation, the answer is asked for again with the reasons (bounded by
 * `maxCitationRetries`); after the bound the answer becomes a refusal, since nothing grounds it. Shared by every agent.
 */
export async function citationCheck(state: CitableRun, deps: { maxCitationRetries: number }) {
  const maxRetries = deps.maxCitationRetries;
  const answer = state.answer;
  if (!answer) return { update: {}, summary: 'no answer to check' };
  const evidence = state.evidence.map((item) => ({ chunkId: item.chunk_id, docId: item.doc_id, text: item.text }));
  const checked = checkCitations(answer, evidence);
  const reasons = checked.dropped.map(
    ({ citation, reason }) => `${citation.chunk_id}: ${reason.replaceAll('_', ' ')} ("${citation.quote.slice(0, 80)}")`,
  );
  const ungrounded = answer.answerable && checked.answer.citations.length === 0;
  if (ungrounded && state.retry_count < maxRetries) {
    return {
      update: { answer: null, citation_feedback: reasons, retry_count: state.retry_count + 1 },
      summary: `retry: every citation dropped (${reasons.join('; ')})`,
    };
  }
  if (ungrounded) {
    return {
      update: {
        answer: refusal(
          ['a passage of the evidence that states the answer'],
          'The answer could not be grounded in the evidence.',
        ),
        status: 'refused' as const,
        citation_feedback: reasons,
      },
      summary: `refused: no citation survived after ${state.retry_count} retr${state.retry_count === 1 ? 'y' : 'ies'}`,
    };
  }
  return {
    update: { answer: checked.answer, citation_feedback: reasons },
    summary: `${checked.answer.citations.length} kept, ${checked.dropped.length} dropped${reasons.length ? ` (${reasons.join('; ')})` : ''}`,
  };
}
