import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.ts';
import { writeTinyTransformersModel } from '../../testing/tiny-transformers-model.ts';
import { createReranker } from '../create-reranker.ts';
import type { RerankCandidate, Reranker } from '../reranker.ts';
import { CrossEncoderReranker } from './cross-encoder-reranker.ts';

/**
 * The happy path through the real library and onnxruntime: tiny BERT-shaped cross-encoders written by the test,
 * whose score is the dot product of the query's and the passage's summed token embeddings (one topic per axis).
 */
const QUERY = 'do cats chase mice?';
const PASSAGES = [
  'Stocks fell on the market as bank shares dropped.',
  'Our cats chase mice and the dog likes to bark at them.',
  'The dog and the cat sleep in the kitchen.',
  'Bake the bread in a hot oven.',
  'Heavy snow and a cold wind are in the forecast.',
];
const candidates = (texts: readonly string[]): RerankCandidate[] =>
  texts.map((text, i) => ({ id: `c${i}`, text, retrievalScore: 1 / (i + 1) }));

describe('CrossEncoderReranker with a real model folder', () => {
  let dir: string;
  let folder: string;
  let reranker: Reranker;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evident-tiny-cross-encoder-'));
    folder = writeTinyTransformersModel(join(dir, 'tiny-cross-encoder'), { task: 'text-classification' }).folder;
    const loaded = await createReranker(
      configSchema.parse({ reranker: `cross-encoder:${folder}`, modelsDir: join(dir, 'unused') }),
      async () => undefined,
    );
    if (!loaded) throw new Error('createReranker returned no reranker for a cross-encoder');
    reranker = loaded;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads through createReranker, named after the folder', () => {
    expect(reranker).toBeInstanceOf(CrossEncoderReranker);
    expect(reranker.id).toBe('cross-encoder:tiny-cross-encoder');
  });

  it('scores the passage that matches the query above the related one, and both above unrelated passages', async () => {
    const scores = await reranker.rerank(QUERY, candidates(PASSAGES));
    expect(scores).toHaveLength(PASSAGES.length);
    for (const score of scores) expect(Number.isFinite(score)).toBe(true);
    const [stocks, match, related, bread, snow] = scores as [number, number, number, number, number];
    expect(match).toBeGreaterThan(related);
    expect(related).toBeGreaterThan(Math.max(stocks, bread, snow) + 1);
    // The pair, not the passage alone, decides: another query prefers another passage.
    const [stocksForMarket, matchForMarket] = await reranker.rerank(
      'bank stock prices',
      candidates(PASSAGES.slice(0, 2)),
    );
    expect(stocksForMarket).toBeGreaterThan((matchForMarket as number) + 1);
  });

  it('gives the same scores, in candidate order, whatever the batch size and padding', async () => {
    const whole = await reranker.rerank(QUERY, candidates(PASSAGES));
    const small = await CrossEncoderReranker.create({ model: folder, modelsDir: dir, batchSize: 2 });
    const batched = await small.rerank(QUERY, candidates(PASSAGES));
    expect(batched).toHaveLength(PASSAGES.length);
    batched.forEach((score, i) => expect(score).toBeCloseTo(whole[i] as number, 4));
    const [alone] = await small.rerank(QUERY, candidates([PASSAGES[1] as string]));
    expect(alone).toBeCloseTo(whole[1] as number, 4);
    expect(await reranker.rerank(QUERY, [])).toEqual([]);
  });

  it('reads a two-label classifier as the log-odds of label 1', async () => {
    const twoLabels = writeTinyTransformersModel(join(dir, 'tiny-binary'), {
      task: 'text-classification',
      numLabels: 2,
    });
    const binary = await CrossEncoderReranker.create({ model: twoLabels.folder, modelsDir: dir });
    expect(binary.id).toBe('cross-encoder:tiny-binary');
    // The two-label export's logits are [-s/2, s/2] for the one-label export's score s.
    const expected = await reranker.rerank(QUERY, candidates(PASSAGES));
    const scores = await binary.rerank(QUERY, candidates(PASSAGES));
    scores.forEach((score, i) => expect(score).toBeCloseTo(expected[i] as number, 4));
  });
});
