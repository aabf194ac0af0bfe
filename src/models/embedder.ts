/** Turns text into unit-length vectors. `id` names the model exactly, so a store can refuse vectors of another. */
export interface Embedder {
  readonly id: string;
  readonly dimension: number;
  /** Preferred batch size for `embed`. */
  readonly batchSize: number;
  embed(texts: readonly string[], kind: 'query' | 'document'): Promise<Float32Array[]>;
}
