import { describe, expect, it } from 'vitest';
import { hitAt, mrrAt, ndcgAt, percentile, recallAt } from './ranking-metrics.ts';

const qrels = new Map([
  ['a', 1],
  ['b', 1],
]);

describe('ranking metrics', () => {
  it('scores a perfect ranking as 1', () => {
    expect(ndcgAt(['a', 'b', 'x'], qrels, 10)).toBeCloseTo(1);
    expect(recallAt(['a', 'b'], qrels, 100)).toBe(1);
    expect(mrrAt(['a'], qrels, 10)).toBe(1);
  });

  it('discounts relevant documents found lower down', () => {
    // DCG = 1/log2(3) + 1/log2(4); IDCG = 1 + 1/log2(3)
    const expected = (1 / Math.log2(3) + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3));
    expect(ndcgAt(['x', 'a', 'b'], qrels, 10)).toBeCloseTo(expected, 10);
    expect(mrrAt(['x', 'y', 'b'], qrels, 10)).toBeCloseTo(1 / 3);
    expect(mrrAt(['x', 'y', 'b'], qrels, 2)).toBe(0);
  });

  it('uses graded gains and cuts at k', () => {
    const graded = new Map([
      ['a', 2],
      ['b', 1],
    ]);
    expect(ndcgAt(['b', 'a'], graded, 10)).toBeLessThan(1);
    expect(recallAt(['x', 'a', 'b'], graded, 2)).toBe(0.5);
    expect(hitAt(['x', 'y'], graded, 2)).toBe(0);
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
  });
});
