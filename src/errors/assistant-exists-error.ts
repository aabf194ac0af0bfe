import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.AssistantExistsError';
const symbol = Symbol.for(marker);

/** A create named an assistant id that is taken, and asked to raise (`if_exists: "raise"`, LangGraph's default). */
export class AssistantExistsError extends EvidentError {
  private readonly [symbol] = true;

  constructor(assistantId: string) {
    super('assistant_exists', `An assistant with id ${JSON.stringify(assistantId)} exists.`, {
      category: 'user',
      hint: 'Leave assistant_id out to get a new id, or send if_exists: "do_nothing" to get the existing one.',
    });
  }

  static override isInstance(error: unknown): error is AssistantExistsError {
    return EvidentError.hasMarker(error, marker);
  }
}
