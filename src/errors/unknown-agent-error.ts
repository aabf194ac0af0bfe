import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.UnknownAgentError';
const symbol = Symbol.for(marker);

/** An agent name (a CLI flag) that the runtime does not serve; the hint lists those it does. */
export class UnknownAgentError extends EvidentError {
  private readonly [symbol] = true;

  constructor(name: string, agents: readonly string[]) {
    super('unknown_agent', `Unknown agent ${JSON.stringify(name)}.`, {
      category: 'user',
      hint: `Agents: ${agents.join(', ')}.`,
    });
  }

  static override isInstance(error: unknown): error is UnknownAgentError {
    return EvidentError.hasMarker(error, marker);
  }
}
