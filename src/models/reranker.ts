export interface RerankCandidate {
  id: string;
  text: string;
  /** The candidate's fused retrieval score, for rerankers that blend it in. */
  retrievalScore: number;
  /**
   * The chunk's stored analysed form (text/analysed-form.ts), when the store keeps one: the offline reranker reads its
   * index terms from it instead of analysing `text` (the same scores). Other rerankers ignore it.
   */
  analysed?: Uint8Array;
}

/** Scores candidates against a query; higher is better. Returns one score per candidate, in order. */
export interface Reranker {
  readonly id: string;
  rerank(query: string, candidates: readonly RerankCandidate[]): Promise<number[]>;
  /** Releases what the reranker holds (an in-process model); absent when there is nothing to release. */
  close?(): Promise<void>;
}
