import { EvidentError, type EvidentErrorOptions } from './evident-error.ts';

const marker = 'evident.error.ProviderError';
const symbol = Symbol.for(marker);

/** A model provider (embedder, reranker, chat) failed or is unreachable. */
export class ProviderError extends EvidentError {
  private readonly [symbol] = true;

  constructor(provider: string, message: string, options: EvidentErrorOptions = {}) {
    super('provider_failed', `${provider}: ${message}`, { category: 'upstream', ...options });
  }

  static override isInstance(error: unknown): error is ProviderError {
    return EvidentError.hasMarker(error, marker);
  }
}
