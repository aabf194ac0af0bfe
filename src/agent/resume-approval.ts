import { Command } from '@langchain/langgraph';
import { isAdmin, type Principal } from '../domain/index.ts';
import { EvidentError, ValidationError } from '../errors/index.ts';
import { approvalDecisionSchema, isPendingAction, type ApprovalDecision } from './approval.ts';
import type { RagGraph } from './graphs/rag.ts';
import type { RagStateType } from './state.ts';

export interface ApproveInput extends ApprovalDecision {
  threadId: string;
  /** Who decides: the thread's owner, or an admin. */
  principal: Principal;
}

/**
 * Resumes a run that waits for an approval with `new Command({ resume: { decision, args } })`. Only the thread's
 * owner or an admin may decide; anyone else gets the message a continuation gets, which says nothing of the thread.
 * The resumed run keeps its run id, so the side effect's idempotency key is the one the interrupt announced.
 */
export async function resumeApproval(graph: RagGraph, input: ApproveInput): Promise<{ state: RagStateType; runId: string }> {
  const { threadId, principal } = input;
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  const values = snapshot.values as Partial<RagStateType> | undefined;
  const owner = values?.principal;
  if (owner && owner.id !== principal.id && !isAdmin(principal)) {
    throw new EvidentError('thread_forbidden', `Thread ${threadId} is not available to ${principal.id}.`, {
      hint: "Only the thread's owner (or an admin) may approve its pending actions.",
    });
  }
  const pending = snapshot.tasks.flatMap((task) => task.interrupts.map((item) => item.value)).filter(isPendingAction);
  if (pending.length === 0) {
    throw new EvidentError('no_pending_approval', `Thread ${threadId} has no action waiting for approval.`, {
      hint: 'A run waits for approval when `evident ask` prints "waiting for approval".',
    });
  }
  const decision = approvalDecisionSchema.parse({ decision: input.decision, ...(input.args ? { args: input.args } : {}) });
  if (decision.decision === 'edit' && (typeof decision.args?.text !== 'string' || !decision.args.text.trim())) {
    throw new ValidationError('An edit needs the new arguments, e.g. {"text": "…"} with non-empty text.', {
      hint: `Pass --edit '{"text": "…"}', or approve or reject as proposed.`,
    });
  }
  const runId = values?.run_id ?? '';
  const state: RagStateType = await graph.invoke(new Command({ resume: decision }), { configurable: { thread_id: threadId, run_id: runId } });
  return { state, runId };
}
