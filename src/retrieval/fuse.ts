import type { ChannelHit, ChannelName } from '../domain/index.ts';

/**
 * A chunk after fusion: its fused score and its place in every ranked list that found it. The lists are retrieval
 * channels by default; RAG fusion keys them by the query that produced them.
 */
export interface FusedCandidate<K extends string = ChannelName> {
  chunkId: string;
  score: number;
  channels: Partial<Record<K, { rank: number; score: number }>>;
}

export const DEFAULT_RRF_K = 60;

/**
 * Reciprocal rank fusion: score = Σ weight_c / (k + rank_c) over the channels that found the chunk. Rank-based, so
 * channels with incomparable scores (BM25, cosine) combine without calibration. Ties break by best single-channel
 * rank, then chunk id, so the order is deterministic.
 */
export function reciprocalRankFusion<K extends string = ChannelName>(
  lists: Partial<Record<K, readonly ChannelHit[]>>,
  options: { k?: number; weights?: Partial<Record<K, number>> } = {},
): FusedCandidate<K>[] {
  const k = options.k ?? DEFAULT_RRF_K;
  if (!(k > 0)) throw new RangeError(`RRF k must be positive, got ${k}`);
  const byId = new Map<string, FusedCandidate<K> & { bestRank: number }>();
  for (const [channel, hits] of Object.entries(lists) as [K, readonly ChannelHit[]][]) {
    const weight = options.weights?.[channel] ?? 1;
    for (const hit of hits) {
      let candidate = byId.get(hit.chunkId);
      if (!candidate) {
        candidate = { chunkId: hit.chunkId, score: 0, channels: {}, bestRank: Infinity };
        byId.set(hit.chunkId, candidate);
      }
      // A channel that lists a chunk twice counts its best rank once.
      const previous = candidate.channels[channel];
      if (previous && previous.rank <= hit.rank) continue;
      if (previous) candidate.score -= weight / (k + previous.rank);
      candidate.channels[channel] = { rank: hit.rank, score: hit.score };
      candidate.score += weight / (k + hit.rank);
      candidate.bestRank = Math.min(candidate.bestRank, hit.rank);
    }
  }
  return [...byId.values()]
    .sort(
      (a, b) =>
        b.score - a.score || a.bestRank - b.bestRank || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0),
    )
    .map(({ chunkId, score, channels }) => ({ chunkId, score, channels }));
}
