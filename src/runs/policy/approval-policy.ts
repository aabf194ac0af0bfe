import { isAdmin, type Principal } from '../../domain/index.ts';

/** Who may decide on a side-effect tool's pending action: the thread's owner, and/or any admin. */
export type Approver = 'owner' | 'admin';

/** Per tool, who may approve, edit or reject its actions. A tool the policy does not name takes `default`. */
export interface ApprovalPolicy {
  default: readonly Approver[];
  tools: Readonly<Record<string, readonly Approver[]>>;
}

/** Users decide on their own memories; an admin may too (e.g. to clear a queue of pending actions). */
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = {
  default: ['owner', 'admin'],
  tools: { save_memory: ['owner', 'admin'] },
};

export function approversOf(policy: ApprovalPolicy, tool: string): readonly Approver[] {
  return policy.tools[tool] ?? policy.default;
}

/** Whether `principal` may decide on `tool`'s action in a thread owned by `owner`. */
export function mayApprove(policy: ApprovalPolicy, tool: string, principal: Principal, owner: string): boolean {
  const approvers = approversOf(policy, tool);
  return (approvers.includes('owner') && principal.id === owner) || (approvers.includes('admin') && isAdmin(principal));
}
