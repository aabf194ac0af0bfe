import { ProviderError } from '../errors/index.ts';
import type { Embedder } from './embedder.ts';

/**
 * What embedders behind an HTTP API share: batching, asking the server once for the dimension of a model it does
 * not know in advance, and refusing vectors of another dimension. Subclasses speak their wire protocol in `request`.
 */
export abstract class RemoteEmbedder implements Embedder {
  abstract readonly id: string;
  readonly semantic = true;
  readonly cacheInStore = true;
  private dim: number | undefined;

  protected constructor(
    readonly batchSize: number,
    dimension: number | undefined,
  ) {
    this.dim = dimension;
  }

  get dimension(): number {
    return this.dim as number;
  }

  /** Learns the dimension from one request when it was not known in advance. */
  protected async probeDimension(): Promise<void> {
    if (this.dim !== undefined) return;
    const [probe] = await this.request(['dimension probe']);
    this.dim = (probe as Float32Array).length;
  }

  async embed(texts: readonly string[], kind: 'query' | 'document'): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const batch = texts.slice(start, start + this.batchSize).map((text) => this.prepare(text, kind));
      out.push(...(await this.request(batch)).map((vector) => this.checked(vector)));
    }
    return out;
  }

  /** The text as the model should see it (task prefixes, placeholders for what the API rejects). */
  protected abstract prepare(text: string, kind: 'query' | 'document'): string;

  /** One API call: unit vectors, one per input, in input order. */
  protected abstract request(input: string[]): Promise<Float32Array[]>;

  private checked(vector: Float32Array): Float32Array {
    if (this.dim !== undefined && vector.length !== this.dim) {
      throw new ProviderError(this.id, `answered with dimension ${vector.length}, expected ${this.dim}.`, {
        hint: 'Check that the model name is right.',
      });
    }
    return vector;
  }
}
