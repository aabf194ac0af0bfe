import type { PendingAction } from '../../../domain/approval.ts';
import type { Answer, Citation } from '../../../domain/answer.ts';
import { pageLabel } from '../../../domain/page-label.ts';
import type { CompletionOutcome } from './completion-parts.ts';

const citationLine = (citation: Citation, index: number) =>
  `[${index + 1}] ${citation.doc_id}${citation.page ? ` (${pageLabel(citation.doc_id, citation.page)})` : ''}: "${citation.quote}"`;

/** The numbered citations under the answer text (the answer's `[n]` markers point at them); empty without any. */
export function sourcesBlock(answer: Answer | undefined): string {
  if (!answer?.citations.length) return '';
  return `\n\nSources:\n${answer.citations.map(citationLine).join('\n')}`;
}

/** What a chat client is told when the run stopped for an approval, and how to give it (the LangGraph API). */
export function pendingActionText(action: PendingAction, where: { threadId: string; agent: string }): string {
  const decision = JSON.stringify({ assistant_id: where.agent, command: { resume: { decision: 'approve' } } });
  return [
    `This request waits for approval: the ${action.tool} action with ${JSON.stringify(action.args)} runs only once an authorised person approves it.`,
    `To decide, POST /threads/${where.threadId}/runs/wait with ${decision} (or "reject", or "edit" with "args"), or open the thread in the web UI.`,
  ].join('\n');
}

/** What follows the answer text: its sources, or the approval the run waits for. */
export function closingText(outcome: CompletionOutcome, where: { threadId: string; agent: string }): string {
  if (outcome.pendingAction) return `${outcome.answer ? '\n\n' : ''}${pendingActionText(outcome.pendingAction, where)}`;
  return sourcesBlock(outcome.answer);
}

/** The whole reply text of a run that ended: the answer followed by its sources, or the pending approval. */
export function replyText(outcome: CompletionOutcome, where: { threadId: string; agent: string }): string {
  return `${outcome.answer?.answer ?? ''}${closingText(outcome, where)}`;
}

/** Evident's extension of a completion: the full answer contract and how the run ended. */
export function evidentExtension(outcome: CompletionOutcome, ids: { threadId: string; runId: string }) {
  return {
    status: outcome.status,
    thread_id: ids.threadId,
    run_id: ids.runId,
    ...(outcome.answer ?? {}),
    ...(outcome.pendingAction ? { pending_action: outcome.pendingAction } : {}),
  };
}
