import { describe, expect, it } from 'vitest';
import { citedRegion } from './cited-region.ts';

const row = (text: string, x: number) => ({
  page: 7,
  text,
  cells: [[x, 700, x + 20, 710]] as [number, number, number, number][],
});
const regions = [
  row('System: BERT BASE | Dev: 81.6 | Test: -', 72),
  row('System: BERT LARGE | Dev: 86.6 | Test: 86.3', 90),
];

describe('citedRegion', () => {
  it('finds the row a quote lies in, or that a quote holds whole, whatever the spacing and quote marks', () => {
    expect(citedRegion(regions, 'System: BERT LARGE | Dev: 86.6')).toBe(regions[1]);
    expect(citedRegion(regions, 'Table 4 … System:  BERT BASE | Dev: 81.6 | Test: -')).toBe(regions[0]);
    expect(citedRegion(regions, 'System: BERT BASE | Dev: 81.6 | Test: - ')).toBe(regions[0]);
  });

  it('marks nothing for a quote of prose, or an empty one', () => {
    expect(citedRegion(regions, 'BERT LARGE outperforms the baseline')).toBeUndefined();
    expect(citedRegion(regions, '  ')).toBeUndefined();
    expect(citedRegion([], 'System: BERT LARGE')).toBeUndefined();
  });
});
