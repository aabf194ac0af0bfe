import type { StateSnapshot } from '@langchain/langgraph';
import type { Principal } from '../../domain/index.ts';
import { DecisionForbiddenError, NoPendingApprovalError, ValidationError } from '../../errors/index.ts';
import { isPendingAction, type ApprovalDecision, type PendingAction } from '../../domain/approval.ts';
import { mayApprove, type ApprovalPolicy } from './approval-policy.ts';

export interface DecisionCheck {
  snapshot: StateSnapshot;
  threadId: string;
  owner: string;
  principal: Principal;
  decision: ApprovalDecision;
  policy: ApprovalPolicy;
  /** The error for someone who may not even see the thread (each front end words it its own way). */
  notVisible: () => Error;
}

/** The actions a thread's state waits for (the interrupts of its pending tasks). */
export const pendingActionsOf = (snapshot: StateSnapshot): PendingAction[] =>
  snapshot.tasks.flatMap((task) => task.interrupts.map((item) => item.value)).filter(isPendingAction);

/**
 * Checks a decision on the action a thread waits for, before anything resumes: there is one, the policy lets this
 * principal decide on its tool, and an edit carries new arguments. Returns the action decided on.
 */
export function authorizeDecision(check: DecisionCheck): PendingAction {
  const { threadId, owner, principal, decision, policy } = check;
  const pending = pendingActionsOf(check.snapshot)[0];
  if (!pending) {
    if (principal.id !== owner && !principal.roles.includes('admin')) throw check.notVisible();
    throw new NoPendingApprovalError(threadId);
  }
  if (!mayApprove(policy, pending.tool, principal, owner)) {
    // The owner sees the thread, so they learn who may decide; anyone else learns nothing of it.
    if (principal.id !== owner) throw check.notVisible();
    throw new DecisionForbiddenError(pending.tool);
  }
  if (decision.decision === 'edit' && (typeof decision.args?.text !== 'string' || !decision.args.text.trim())) {
    throw new ValidationError('An edit needs the new arguments, e.g. {"text": "…"} with non-empty text.', {
      hint: 'Pass {"text": "…"} with the edit (`--edit` in the CLI, `args` in a resume command), or approve or reject as proposed.',
    });
  }
  return pending;
}
