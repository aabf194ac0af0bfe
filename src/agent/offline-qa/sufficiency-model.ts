import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { LanguageCode } from '../../text/language.ts';
import { FEATURE_NAMES, type FeatureName, type Features } from './sufficiency-features.ts';

/**
 * What scripts/fit-sufficiency.ts writes: logistic models over named features, and what each was fitted on. A model
 * is for one language, or for `any` (the language-neutral measurements): English has a reader of the question's
 * focus head (sufficiency-head.ts) whose measurements the other languages lack, and a need is judged by its
 * language's model when there is one.
 */
const modelSchema = z
  .object({
    language: z.enum(['any', 'en', 'zh']),
    features: z.array(z.string()),
    weights: z.array(z.number()),
    bias: z.number(),
    fitted_on: z.string(),
  })
  .refine((model) => model.features.length === model.weights.length, 'one weight per feature');

export const sufficiencyWeightsSchema = z.object({
  fitted_on: z.string(),
  fitted_at: z.string(),
  models: z.array(modelSchema).min(1),
  /** Held-out figures (k-fold, and by MTRAG collection), at the shared threshold. */
  cross_validated: z.record(z.string(), z.number()).optional(),
  in_sample: z.record(z.string(), z.number()).optional(),
});

export type SufficiencyWeights = z.infer<typeof sufficiencyWeightsSchema>;
export type SufficiencyModel = z.infer<typeof modelSchema>;

export const WEIGHTS_URL = new URL('./sufficiency-weights.json', import.meta.url);

let loaded: SufficiencyWeights | undefined;

/** The committed weights, read and validated once; their features must be ones this code computes. */
export function sufficiencyWeights(): SufficiencyWeights {
  if (loaded) return loaded;
  const weights = sufficiencyWeightsSchema.parse(JSON.parse(readFileSync(WEIGHTS_URL, 'utf8')));
  const known = new Set<string>(FEATURE_NAMES);
  for (const model of weights.models) {
    const unknown = model.features.filter((name) => !known.has(name));
    if (unknown.length > 0)
      throw new Error(
        `sufficiency weights use features [${unknown.join(', ')}] this reader does not compute: re-run scripts/fit-sufficiency.ts`,
      );
  }
  if (!weights.models.some((model) => model.language === 'any'))
    throw new Error('sufficiency weights need a model for any language: re-run scripts/fit-sufficiency.ts');
  loaded = weights;
  return weights;
}

/** The model a need in `language` is judged by: its language's, else the language-neutral one. */
export function modelFor(language: LanguageCode, weights: SufficiencyWeights = sufficiencyWeights()): SufficiencyModel {
  return (
    weights.models.find((model) => model.language === language) ??
    (weights.models.find((model) => model.language === 'any') as SufficiencyModel)
  );
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** The probability that the evidence states the answer to the need the features describe. */
export function sufficiencyOf(features: Features, model: SufficiencyModel): number {
  return sigmoid(
    model.bias +
      model.features.reduce((sum, name, i) => sum + features[name as FeatureName] * (model.weights[i] ?? 0), 0),
  );
}
