import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.AssistantReadOnlyError';
const symbol = Symbol.for(marker);

/**
 * An update, delete or version change of an assistant the caller may read but not change: a system assistant (one
 * per built-in agent, changed by no one), or another user's assistant shared with the caller (its owner or an admin
 * changes it).
 */
export class AssistantReadOnlyError extends EvidentError {
  private readonly [symbol] = true;

  constructor(assistantId: string, system: boolean) {
    super(
      'assistant_read_only',
      system
        ? `The assistant ${JSON.stringify(assistantId)} is a system assistant: it cannot be changed or deleted.`
        : `Only the owner of the assistant ${JSON.stringify(assistantId)} or an admin may change or delete it.`,
      {
        category: 'user',
        hint: system
          ? `Create your own assistant with graph_id "${assistantId}" and the configuration you want.`
          : 'Create your own assistant with the same graph_id and configuration.',
      },
    );
  }

  static override isInstance(error: unknown): error is AssistantReadOnlyError {
    return EvidentError.hasMarker(error, marker);
  }
}
