import { EvidentError } from './evident-error.ts';
import { NotFoundError } from './not-found-error.ts';

const marker = 'evident.error.ModelNotFoundError';
const symbol = Symbol.for(marker);

/** An OpenAI-style `model` that names no agent. Its code is not_found; the OpenAI surface sends it as `model_not_found`. */
export class ModelNotFoundError extends NotFoundError {
  private readonly [symbol] = true;

  constructor(model: string, agents: readonly string[]) {
    super('model', model, `Models here: ${agents.join(', ')} (GET /v1/models).`);
  }

  static override isInstance(error: unknown): error is ModelNotFoundError {
    return EvidentError.hasMarker(error, marker);
  }
}
