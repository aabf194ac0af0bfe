import type { Chunk } from './document.ts';

export type ChannelName = 'bm25' | 'vector';

/** A chunk's place in one channel's ranking. */
export interface ChannelHit {
  chunkId: string;
  /** 1-based. */
  rank: number;
  /** Higher is better in every channel (BM25 is reported positive). */
  score: number;
}

/** A chunk as search returns it, with how each stage saw it. */
export interface SearchResult {
  rank: number;
  chunk: Chunk;
  source: string;
  title: string;
  /** Fused score (reciprocal rank fusion). */
  score: number;
  channels: Partial<Record<ChannelName, { rank: number; score: number }>>;
  rerankScore?: number;
}
