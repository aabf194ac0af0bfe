import { z } from 'zod';

/** What a side-effect tool asks approval for: the `interrupt()` payload, visible while the run waits. */
export interface PendingAction {
  tool: string;
  args: Record<string, unknown>;
  /** Run id + tool call id: also the idempotency key of the side effect. */
  approval_id: string;
}

/** How a run waiting for approval is resumed (`new Command({ resume })`). */
export const approvalDecisionSchema = z.object({
  decision: z.enum(['approve', 'edit', 'reject']),
  /** With `edit`: the arguments to run the tool with instead. */
  args: z.record(z.string(), z.unknown()).optional(),
});

export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

export const isPendingAction = (value: unknown): value is PendingAction =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PendingAction).tool === 'string' &&
  typeof (value as PendingAction).approval_id === 'string' &&
  typeof (value as PendingAction).args === 'object';
