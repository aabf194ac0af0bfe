import { describe, expect, it } from 'vitest';
import { topK } from './top-k.ts';

/** The definition: every index sorted by score (descending), ties by the lower key; the first k. */
function reference(scores: Float32Array, n: number, k: number, key: (i: number) => number): number[] {
  return Array.from({ length: n }, (_, i) => i)
    .sort((a, b) => (scores[b] as number) - (scores[a] as number) || key(a) - key(b))
    .slice(0, Math.max(0, k));
}

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

describe('topK over long lists (sampled floor, then the heap)', () => {
  it('gives the definition on random scores, with and without ties, at every k', () => {
    const random = rng(7);
    for (let round = 0; round < 60; round++) {
      const n = 1 + Math.floor(random() * 30_000);
      // Few distinct values in some rounds, so the k-th score is often tied across the floor.
      const levels = round % 3 === 0 ? 50 : round % 3 === 1 ? 5_000 : 0;
      const scores = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        const x = random() * 2 - 1;
        scores[i] = levels ? Math.round(x * levels) / levels : x;
      }
      // A key that orders indices out of their own order (injective: 7,919 is prime to the prime 1,000,003 > n).
      const key = (i: number) => (i * 7_919) % 1_000_003;
      for (const k of [1, 3, 10, 64, 100, 400, 1_000]) {
        expect(topK(scores, n, k, key)).toEqual(reference(scores, n, k, key));
      }
    }
  });

  it('gives the definition on sorted, reversed, constant and skewed lists and on a prefix of the buffer', () => {
    const n = 20_000;
    const ascending = Float32Array.from({ length: n }, (_, i) => i / n);
    const descending = Float32Array.from({ length: n }, (_, i) => 1 - i / n);
    const constant = new Float32Array(n).fill(0.25);
    // The best scores all sit where the sample does not look (never on a multiple of 8).
    const hidden = Float32Array.from({ length: n }, (_, i) => (i % 8 === 3 && i < 4_000 ? 0.9 : (i % 97) / 200));
    const key = (i: number) => -i;
    for (const scores of [ascending, descending, constant, hidden]) {
      for (const k of [1, 50, 400]) {
        expect(topK(scores, n, k, key)).toEqual(reference(scores, n, k, key));
        expect(topK(scores, 15_000, k, key)).toEqual(reference(scores, 15_000, k, key));
      }
    }
  });
});
