import { describe, expect, it } from 'vitest';
import type { ChannelHit } from '../domain/index.ts';
import { reciprocalRankFusion } from './fuse.ts';

const hits = (...ids: string[]): ChannelHit[] => ids.map((chunkId, i) => ({ chunkId, rank: i + 1, score: 10 - i }));

describe('reciprocalRankFusion', () => {
  it('sums 1/(k+rank) over channels and keeps every channel rank and score', () => {
    const fused = reciprocalRankFusion({ bm25: hits('a', 'b', 'c'), vector: hits('c', 'a') }, { k: 60 });
    expect(fused.map((c) => c.chunkId)).toEqual(['a', 'c', 'b']);
    expect(fused[0]?.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[0]?.channels).toEqual({ bm25: { rank: 1, score: 10 }, vector: { rank: 2, score: 9 } });
    expect(fused[2]?.channels).toEqual({ bm25: { rank: 2, score: 9 } });
  });

  it('lets a small k favour top ranks and a large k favour agreement', () => {
    const lists = { bm25: hits('x', 'z', 'y', 'w'), vector: hits('q', 'r', 's', 'y') };
    expect(
      reciprocalRankFusion(lists, { k: 1 })
        .slice(0, 2)
        .map((c) => c.chunkId)
        .sort(),
    ).toEqual(['q', 'x']);
    expect(reciprocalRankFusion(lists, { k: 1000 })[0]?.chunkId).toBe('y');
  });

  it('applies channel weights', () => {
    const lists = { bm25: hits('a', 'b'), vector: hits('b', 'a') };
    expect(reciprocalRankFusion(lists, { weights: { vector: 0.5 } })[0]?.chunkId).toBe('a');
    expect(reciprocalRankFusion(lists, { weights: { bm25: 0.5 } })[0]?.chunkId).toBe('b');
  });

  it('counts a chunk listed twice by one channel once, at its best rank', () => {
    const fused = reciprocalRankFusion({ bm25: [...hits('a', 'b'), { chunkId: 'a', rank: 3, score: 1 }] });
    expect(fused.find((c) => c.chunkId === 'a')?.score).toBeCloseTo(1 / 61, 12);
  });

  it('breaks ties deterministically and rejects a non-positive k', () => {
    const fused = reciprocalRankFusion({ bm25: hits('b'), vector: hits('a') });
    expect(fused.map((c) => c.chunkId)).toEqual(['a', 'b']);
    expect(() => reciprocalRankFusion({}, { k: 0 })).toThrow(RangeError);
    expect(reciprocalRankFusion({})).toEqual([]);
  });
});
