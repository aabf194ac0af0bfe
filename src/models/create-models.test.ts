import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { ConfigError, ProviderError } from '../errors/index.ts';
import { createEmbedder } from './create-embedder.ts';
import { createReranker } from './create-reranker.ts';
import { HashingEmbedder } from './offline/hashing-embedder.ts';
import { LexicalReranker } from './offline/lexical-reranker.ts';

const config = (input: Record<string, unknown>) => configSchema.parse(input);

describe('createEmbedder', () => {
  it('defaults to the offline hashing embedder', async () => {
    const embedder = await createEmbedder(config({}));
    expect(embedder).toBeInstanceOf(HashingEmbedder);
    expect(embedder.id).toBe('offline-hash-v1-512');
    expect((await createEmbedder(config({ embedder: 'offline:256' }))).id).toBe('offline-hash-v1-256');
  });

  it('rejects unknown providers, missing models and bad dimensions with a ConfigError', async () => {
    await expect(createEmbedder(config({ embedder: 'cohere:embed-v3' }))).rejects.toThrow(ConfigError);
    await expect(createEmbedder(config({ embedder: 'cohere:embed-v3' }))).rejects.toThrow(
      /Unknown embedder provider "cohere"/,
    );
    await expect(createEmbedder(config({ embedder: 'ollama' }))).rejects.toThrow(/needs a model/);
    await expect(createEmbedder(config({ embedder: 'offline:7' }))).rejects.toThrow(ConfigError);
  });

  it('routes transformers:<folder> to the transformers provider', async () => {
    await expect(createEmbedder(config({ embedder: 'transformers:./no/such/folder' }))).rejects.toThrow(ProviderError);
  });
});

describe('createReranker', () => {
  it('gives no reranker by default, the offline one when asked, and a ConfigError for unknown names', async () => {
    expect(await createReranker(config({}), async () => undefined)).toBeUndefined();
    expect(await createReranker(config({ reranker: 'offline' }), async () => undefined)).toBeInstanceOf(
      LexicalReranker,
    );
    expect(await createReranker(config({ reranker: 'none' }), async () => undefined)).toBeUndefined();
    await expect(createReranker(config({ reranker: 'colbert' }), async () => undefined)).rejects.toThrow(ConfigError);
    await expect(createReranker(config({ reranker: 'cross-encoder' }), async () => undefined)).rejects.toThrow(
      /needs a model/,
    );
    await expect(
      createReranker(config({ reranker: 'cross-encoder:./no/such/folder' }), async () => undefined),
    ).rejects.toThrow(ProviderError);
  });
});
