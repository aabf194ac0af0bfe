import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.ThreadInterruptedError';
const symbol = Symbol.for(marker);

/** A new question on a thread that waits for a decision on a proposed action: the decision comes first. */
export class ThreadInterruptedError extends EvidentError {
  private readonly [symbol] = true;

  constructor(threadId: string, tool: string) {
    super('thread_interrupted', `Thread ${threadId} waits for a decision on ${tool} before a new question.`, {
      category: 'user',
      hint: 'Resume it with a command: {"resume": {"decision": "approve" | "edit" | "reject"}}.',
    });
  }

  static override isInstance(error: unknown): error is ThreadInterruptedError {
    return EvidentError.hasMarker(error, marker);
  }
}
