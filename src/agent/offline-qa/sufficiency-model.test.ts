import { describe, expect, it } from 'vitest';
import { SUFFICIENT_AT, isSufficient } from './sufficiency.ts';
import { ENGLISH_FEATURES, FEATURE_NAMES, NEUTRAL_FEATURES, type Features } from './sufficiency-features.ts';
import { modelFor, sufficiencyOf, sufficiencyWeights } from './sufficiency-model.ts';

const base: Features = Object.fromEntries(FEATURE_NAMES.map((name) => [name, 0.5])) as Features;

describe('fitted sufficiency models', () => {
  it('loads the committed weights: a language-neutral model and an English one, over features the reader computes, with what and when they were fitted on', () => {
    const weights = sufficiencyWeights();
    expect(modelFor('zh').language).toBe('any');
    expect(modelFor('zh').features).toEqual([...NEUTRAL_FEATURES]);
    expect(modelFor('en').language).toBe('en');
    expect(modelFor('en').features).toEqual([...ENGLISH_FEATURES]);
    for (const model of weights.models) expect(model.weights.every(Number.isFinite)).toBe(true);
    expect(weights.fitted_on).toMatch(/dev cases/);
    expect(weights.fitted_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(weights.cross_validated?.['mtrag-fiqa.refusal_f1']).toEqual(expect.any(Number));
  });

  it('is monotone in the obvious features: more of the need stated, its entities named, the asked attribute stated', () => {
    for (const language of ['en', 'zh'] as const) {
      for (const name of ['sentence_coverage', 'entity_coverage'] as const) {
        expect([
          language,
          name,
          sufficiencyOf({ ...base, [name]: 1 }, modelFor(language)) >
            sufficiencyOf({ ...base, [name]: 0 }, modelFor(language)),
        ]).toEqual([language, name, true]);
      }
    }
    const en = modelFor('en');
    expect(sufficiencyOf({ ...base, head_stated: 1, head_value: 1 }, en)).toBeGreaterThan(
      sufficiencyOf({ ...base, head_stated: 0, head_value: 0 }, en),
    );
  });

  it('gives a probability whose threshold is the shared one', () => {
    const strong = {
      ...base,
      sentence_coverage: 1,
      chunk_coverage: 1,
      union_coverage: 1,
      chunk_complete: 1,
      entity_coverage: 1,
      rank_prior: 1,
      cjk: 0,
      attribute_with_entity: 1,
      head_stated: 1,
      asked_union: 1,
    };
    const weak = {
      ...base,
      sentence_coverage: 0,
      chunk_coverage: 0,
      union_coverage: 0,
      chunk_complete: 0,
      entity_coverage: 0,
      typed: 1,
      typed_span: 0,
      span_agreement: 0,
      attribute_with_entity: 0,
      head_stated: 0,
      head_value: 0,
      asked_union: 0,
    };
    for (const language of ['en', 'zh'] as const) {
      expect(sufficiencyOf(strong, modelFor(language))).toBeGreaterThan(SUFFICIENT_AT);
      expect(sufficiencyOf(weak, modelFor(language))).toBeLessThan(SUFFICIENT_AT);
      expect(isSufficient(sufficiencyOf(strong, modelFor(language)))).toBe(true);
    }
  });
});
