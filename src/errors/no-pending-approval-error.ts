import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.NoPendingApprovalError';
const symbol = Symbol.for(marker);

/** A decision sent to a thread that waits for none. */
export class NoPendingApprovalError extends EvidentError {
  private readonly [symbol] = true;

  constructor(threadId: string) {
    super('no_pending_approval', `Thread ${threadId} has no action waiting for a decision.`, {
      category: 'user',
      hint: 'A run waits for a decision when it ends with an __interrupt__ ("waiting for approval" in the CLI).',
    });
  }

  static override isInstance(error: unknown): error is NoPendingApprovalError {
    return EvidentError.hasMarker(error, marker);
  }
}
