import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ThreadAgentMismatchError';
const symbol = Symbol.for(marker);

/** A run of one agent on a thread of another: each agent checkpoints its own state shape, so one thread cannot hold two. */
export class ThreadAgentMismatchError extends EvidentError {
  private readonly [symbol] = true;

  constructor(threadId: string, threadAgent: string, requestedAgent: string) {
    super('thread_agent_mismatch', `Thread ${threadId} belongs to the ${threadAgent} agent, not ${requestedAgent}.`, {
      category: 'user',
      hint: `Start a new thread for ${requestedAgent}, or ask ${threadAgent} on this one.`,
    });
  }

  static override isInstance(error: unknown): error is ThreadAgentMismatchError {
    return EvidentError.hasMarker(error, marker);
  }
}
