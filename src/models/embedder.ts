/** Turns text into unit-length vectors. `id` names the model exactly, so a store can refuse vectors of another. */
export interface Embedder {
  readonly id: string;
  readonly dimension: number;
  /**
   * Whether nearness means similar meaning (a trained model) or only shared words and spellings (the offline
   * hashing embedder). Retrieval fuses the vector channel by default only when it is semantic.
   */
  readonly semantic: boolean;
  /**
   * Whether vectors are worth keeping in the store's embedding cache (slow or remote models). The offline hashing
   * embedder recomputes a vector faster than the cache reads one back, and its cache doubled the store's size.
   */
  readonly cacheInStore: boolean;
  /** Preferred batch size for `embed`. */
  readonly batchSize: number;
  embed(texts: readonly string[], kind: 'query' | 'document'): Promise<Float32Array[]>;
  /**
   * Documents' vectors given each text's `analyzeForIndex` as well, for an embedder that reads it (ingestion has it
   * already): exactly `embed(texts, 'document')`'s vectors.
   */
  embedAnalysed?(texts: readonly string[], analysed: readonly string[]): Promise<Float32Array[]>;
  /**
   * Set when the embedder is a pure function of its input, cheap to build: `createEmbedder` given this spec builds
   * the same one, so ingestion's worker threads embed in parallel. Absent: embedding stays on the calling thread.
   */
  readonly workerSpec?: string;
}
