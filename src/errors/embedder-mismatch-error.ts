import { EvidentError } from './evident-error.ts';

const marker = 'evident.error.EmbedderMismatchError';
const symbol = Symbol.for(marker);

export interface EmbedderIdentity {
  id: string;
  dimension: number;
}

/** The store holds vectors of another embedder than the one configured. */
export class EmbedderMismatchError extends EvidentError {
  private readonly [symbol] = true;

  constructor(stored: EmbedderIdentity, configured: EmbedderIdentity) {
    super(
      'embedder_mismatch',
      `The store's vectors were built by embedder ${stored.id} (dimension ${stored.dimension}), but ${configured.id} (dimension ${configured.dimension}) is configured.`,
      {
        category: 'user',
        hint: `Run \`evident reindex\` to rebuild the vectors with ${configured.id}, or configure ${stored.id} again.`,
        details: { stored, configured },
      },
    );
  }

  static override isInstance(error: unknown): error is EmbedderMismatchError {
    return EvidentError.hasMarker(error, marker);
  }
}
