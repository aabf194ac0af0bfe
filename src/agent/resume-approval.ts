import { Command } from '@langchain/langgraph';
import type { Principal } from '../domain/index.ts';
import { ThreadForbiddenError } from '../errors/index.ts';
import { approvalDecisionSchema, type ApprovalDecision } from './core/approval.ts';
import type { RagGraph } from './rag/rag-graph.ts';
import type { ApprovalPolicy } from './policy/approval-policy.ts';
import { authorizeDecision } from './policy/authorize-decision.ts';
import type { RagStateType } from './core/state.ts';

export interface ApproveInput extends ApprovalDecision {
  threadId: string;
  /** Who decides: whom the approval policy allows for the pending tool. */
  principal: Principal;
}

/**
 * Resumes a run that waits for an approval with `new Command({ resume: { decision, args } })`, once the policy lets
 * the principal decide (see `authorizeDecision`); anyone who may not gets the message a continuation gets, which
 * says nothing of the thread. The resumed run keeps its run id, so the side effect's idempotency key is the one the
 * interrupt announced.
 */
export async function resumeApproval(graph: RagGraph, policy: ApprovalPolicy, input: ApproveInput): Promise<{ state: RagStateType; runId: string }> {
  const { threadId, principal } = input;
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  const values = snapshot.values as Partial<RagStateType> | undefined;
  const decision = approvalDecisionSchema.parse({ decision: input.decision, ...(input.args ? { args: input.args } : {}) });
  authorizeDecision({
    snapshot,
    threadId,
    owner: values?.principal?.id ?? principal.id,
    principal,
    decision,
    policy,
    notVisible: () => new ThreadForbiddenError(threadId, principal.id),
  });
  const runId = values?.run_id ?? '';
  const state: RagStateType = await graph.invoke(new Command({ resume: decision }), { configurable: { thread_id: threadId, run_id: runId } });
  return { state, runId };
}
