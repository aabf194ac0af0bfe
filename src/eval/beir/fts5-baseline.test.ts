import { describe, expect, it } from 'vitest';
import { buildFts5Baseline, fts5OrQuery } from './fts5-baseline.ts';

const corpus = [
  { id: 'a', title: 'Parallel algorithms', text: 'Comparisons of parallel and sequential sorting.' },
  { id: 'b', title: '', text: 'Sequential file organisation on disks.' },
  { id: 'c', title: 'Compilers', text: 'Intermediate languages for compilers.' },
];

describe('FTS5 baseline', () => {
  it('ORs the quoted unicode61 tokens of a query, repeats kept, no syntax passed through', () => {
    expect(fts5OrQuery('parallel "AND" parallel, NEAR(x)')).toBe('"parallel" OR "AND" OR "parallel" OR "NEAR" OR "x"');
    expect(fts5OrQuery('*, +.')).toBeUndefined();
  });

  it('ranks title + text with porter stemming and counts a repeated query word again', () => {
    const baseline = buildFts5Baseline(corpus);
    try {
      expect(baseline.search('compiler', 10)).toEqual(['c']);
      // "parallel" twice outweighs "sequential" once: a first, b (sequential only) after it.
      expect(baseline.search('parallel sequential parallel', 10)).toEqual(['a', 'b']);
      expect(baseline.search('', 10)).toEqual([]);
    } finally {
      baseline.close();
    }
  });
});
