import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, resolveRetrievalSettings } from '../../config/schema.ts';
import type { Principal } from '../../domain/index.ts';
import { Ingestor } from '../../ingest/ingestor.ts';
import { silentLogger } from '../../logging/logger.ts';
import { HybridSearch } from '../../retrieval/hybrid-search.ts';
import { openSqliteStore } from '../../store/sqlite/store.ts';
import type { Store } from '../../store/store.ts';
import { writeTinyTransformersModel } from '../../testing/tiny-transformers-model.ts';
import { createEmbedder } from '../create-embedder.ts';
import type { Embedder } from '../embedder.ts';
import { TransformersEmbedder } from './transformers-embedder.ts';

/**
 * The happy path through the real library and onnxruntime: a tiny BERT-shaped model folder written by the test
 * (topic-structured embedding table, see tiny-transformers-model.ts) is loaded offline from disk.
 */
const ADMIN: Principal = { id: 'root', groups: [], roles: ['admin'] };
const HIDDEN = 8;

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

describe('TransformersEmbedder with a real model folder', () => {
  let dir: string;
  let folder: string;
  let embedder: Embedder;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evident-tiny-embedder-'));
    folder = writeTinyTransformersModel(join(dir, 'tiny-embedder'), {
      task: 'feature-extraction',
      hiddenSize: HIDDEN,
    }).folder;
    embedder = await createEmbedder(
      configSchema.parse({ embedder: `transformers:${folder}`, modelsDir: join(dir, 'unused') }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads through createEmbedder: a semantic embedder named after the folder, with the model hidden size', () => {
    expect(embedder).toBeInstanceOf(TransformersEmbedder);
    expect(embedder.id).toBe('transformers:tiny-embedder');
    expect(embedder.dimension).toBe(HIDDEN);
    expect(embedder.semantic).toBe(true);
  });

  it('returns one unit-length vector of the model dimension per text, the same on every call', async () => {
    const texts = [
      'cats chase mice',
      'stocks fell and prices rose',
      'heavy rain in winter',
      'words the model never saw',
    ];
    const first = await embedder.embed(texts, 'document');
    expect(first).toHaveLength(texts.length);
    for (const vector of first) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(HIDDEN);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    expect(await embedder.embed(texts, 'document')).toEqual(first);
    // Distinct texts get distinct vectors: rows are not mixed up or repeated.
    expect(cosine(first[0] as Float32Array, first[1] as Float32Array)).toBeLessThan(0.5);
  });

  it('puts texts on one topic, and texts sharing words, closer than unrelated texts', async () => {
    const [cats, dogs, stocks, rain, snow, bread] = await embedder.embed(
      [
        'cats chase mice',
        'the dog and the cat',
        'stocks fell and prices rose',
        'heavy rain and wind',
        'heavy snow and wind',
        'bake bread in the oven',
      ],
      'document',
    );
    const sim = (a?: Float32Array, b?: Float32Array) => cosine(a as Float32Array, b as Float32Array);
    expect(sim(cats, dogs)).toBeGreaterThan(0.7);
    expect(sim(cats, stocks)).toBeLessThan(0.3);
    expect(sim(cats, dogs)).toBeGreaterThan(sim(cats, stocks) + 0.5);
    expect(sim(rain, snow)).toBeGreaterThan(sim(rain, bread) + 0.5);
  });

  it('pools over real tokens only: a text embeds the same alone, padded in a batch, and across batches', async () => {
    const short = 'cats chase mice';
    const long = 'the market fell as heavy snow and a cold storm hit the bank and the stock trading';
    const [alone] = await embedder.embed([short], 'query');
    const [padded] = await embedder.embed([short, long], 'document');
    expect(Array.from(padded as Float32Array)).toEqual(
      Array.from(alone as Float32Array).map((x) => expect.closeTo(x, 5)),
    );

    const small = await TransformersEmbedder.create({ model: folder, modelsDir: dir, batchSize: 2 });
    const texts = [short, long, 'bake bread', 'rain', 'dogs bark'];
    const batched = await small.embed(texts, 'document');
    const whole = await embedder.embed(texts, 'document');
    expect(batched).toHaveLength(5);
    batched.forEach((vector, i) => expect(cosine(vector, whole[i] as Float32Array)).toBeCloseTo(1, 5));
  });

  it('resolves a bare name as a folder under modelsDir', async () => {
    const named = await createEmbedder(configSchema.parse({ embedder: 'transformers:tiny-embedder', modelsDir: dir }));
    expect(named.id).toBe('transformers:tiny-embedder');
    expect(await named.embed(['cats'], 'query')).toEqual(await embedder.embed(['cats'], 'query'));
  });

  it('loads an export that only has onnx/model_quantized.onnx', async () => {
    const quantized = writeTinyTransformersModel(join(dir, 'tiny-q8'), {
      task: 'feature-extraction',
      hiddenSize: HIDDEN,
      onnxFile: 'model_quantized.onnx',
    });
    const q8 = await TransformersEmbedder.create({ model: quantized.folder, modelsDir: dir });
    expect(q8.id).toBe('transformers:tiny-q8');
    expect(await q8.embed(['heavy rain'], 'query')).toEqual(await embedder.embed(['heavy rain'], 'query'));
  });

  describe('end to end: ingestion into SQLite and vector-only search', () => {
    let store: Store;
    const passages = {
      pets: 'Our cats chase mice in the kitchen and the dog likes to bark at them.',
      markets: 'Stocks fell on the market as bank shares and prices dropped in heavy trading.',
      weather: 'The forecast says heavy snow, cold wind and a winter storm.',
      baking: 'Bake the bread in a hot oven with flour, salt and butter.',
    };

    beforeAll(async () => {
      store = await openSqliteStore(join(dir, 'store', 'evident.db'));
      const config = configSchema.parse({});
      const ingestor = new Ingestor({ store, embedder, config, logger: silentLogger });
      const summary = await ingestor.ingestRecords(
        Object.entries(passages).map(([docId, text]) => ({
          docId: `${docId}.txt`,
          title: `note ${docId.length}`,
          text,
        })),
      );
      expect(summary).toMatchObject({ added: 4, failed: 0 });
    });
    afterAll(async () => store.close());

    it('stores the model id and dimension, and the vector channel finds the passage on the query topic', async () => {
      expect(await store.embedderInfo()).toEqual({ id: 'transformers:tiny-embedder', dimension: HIDDEN });
      const defaults = resolveRetrievalSettings(configSchema.parse({ retrieval: { channels: ['vector'] } }), embedder);
      const search = new HybridSearch({ store, embedder, defaults });
      const expected: Record<string, string> = {
        'do cats chase mice?': 'pets.txt',
        'bank stock prices': 'markets.txt',
        'is a snow storm in the forecast': 'weather.txt',
        'a recipe for soup': 'baking.txt',
      };
      for (const [query, docId] of Object.entries(expected)) {
        const trace = await search.search(query, ADMIN, { topK: 4 });
        expect(trace.channels.bm25).toBeUndefined();
        expect(trace.results[0]?.chunk.docId, query).toBe(docId);
        expect(trace.results[0]?.channels.vector?.rank).toBe(1);
      }
    });
  });
});
