import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { FEATURE_NAMES, featureVector, type Features } from './sufficiency-features.ts';

/** What scripts/fit-sufficiency.ts writes: a logistic model over the named features, and what it was fitted on. */
export const sufficiencyWeightsSchema = z
  .object({
    features: z.array(z.string()),
    weights: z.array(z.number()),
    bias: z.number(),
    fitted_on: z.string(),
    cross_validated: z.record(z.string(), z.number()).optional(),
  })
  .refine((model) => model.features.length === model.weights.length, 'one weight per feature');

export type SufficiencyWeights = z.infer<typeof sufficiencyWeightsSchema>;

export const WEIGHTS_URL = new URL('./sufficiency-weights.json', import.meta.url);

let loaded: SufficiencyWeights | undefined;

/** The committed weights, read and validated once; their features must be the ones this code computes. */
export function sufficiencyWeights(): SufficiencyWeights {
  if (loaded) return loaded;
  const model = sufficiencyWeightsSchema.parse(JSON.parse(readFileSync(WEIGHTS_URL, 'utf8')));
  if (model.features.join(',') !== FEATURE_NAMES.join(',')) {
    throw new Error(`sufficiency weights are for features [${model.features.join(', ')}], this reader computes [${FEATURE_NAMES.join(', ')}]: re-run scripts/fit-sufficiency.ts`);
  }
  loaded = model;
  return model;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** The probability that the evidence states the answer to the need the features describe. */
export function sufficiencyOf(features: Features, model: SufficiencyWeights = sufficiencyWeights()): number {
  const x = featureVector(features);
  return sigmoid(model.bias + x.reduce((sum, value, i) => sum + value * (model.weights[i] ?? 0), 0));
}
