import { describe, expect, it } from 'vitest';
import { SUFFICIENT_AT, isSufficient } from '../sufficiency.ts';
import { FEATURE_NAMES, type Features } from './sufficiency-features.ts';
import { sufficiencyOf, sufficiencyWeights } from './sufficiency-model.ts';

const base: Features = Object.fromEntries(FEATURE_NAMES.map((name) => [name, 0.5])) as Features;

describe('fitted sufficiency model', () => {
  it('loads the committed weights for exactly the features the reader computes, with a note of what it was fitted on', () => {
    const model = sufficiencyWeights();
    expect(model.features).toEqual([...FEATURE_NAMES]);
    expect(model.weights.every(Number.isFinite)).toBe(true);
    expect(model.fitted_on).toMatch(/dev cases/);
    expect(model.cross_validated).toBeDefined();
  });

  it('is monotone in the obvious features: more of the need stated, its entities named, a value of the asked type', () => {
    for (const name of ['sentence_coverage', 'entity_coverage', 'chunk_complete', 'span_agreement'] as const) {
      expect([name, sufficiencyOf({ ...base, [name]: 1 })]).toEqual([name, expect.any(Number)]);
      expect(sufficiencyOf({ ...base, [name]: 1 })).toBeGreaterThan(sufficiencyOf({ ...base, [name]: 0 }));
    }
    const typed = { ...base, typed: 1 };
    expect(sufficiencyOf({ ...typed, typed_span: 1 })).toBeGreaterThan(sufficiencyOf({ ...typed, typed_span: 0 }));
  });

  it('gives a probability whose threshold is the shared one', () => {
    const strong = sufficiencyOf({ ...base, sentence_coverage: 1, chunk_coverage: 1, union_coverage: 1, chunk_complete: 1, specific_stated: 1, entity_coverage: 1, rank_prior: 1, cjk: 0 });
    const weak = sufficiencyOf({ ...base, sentence_coverage: 0, chunk_coverage: 0, union_coverage: 0, chunk_complete: 0, specific_stated: 0, entity_coverage: 0, typed: 1, typed_span: 0, span_agreement: 0 });
    expect(strong).toBeGreaterThan(SUFFICIENT_AT);
    expect(weak).toBeLessThan(SUFFICIENT_AT);
    expect(isSufficient(strong)).toBe(true);
    expect(isSufficient(weak)).toBe(false);
  });
});
