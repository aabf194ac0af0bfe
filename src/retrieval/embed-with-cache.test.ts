import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../errors/index.ts';
import type { Embedder } from '../models/embedder.ts';
import { HashingEmbedder } from '../models/offline/hashing-embedder.ts';
import { openSqliteStore } from '../store/sqlite/store.ts';
import type { Store } from '../store/store.ts';
import { embedWithCache, embeddingContentHash } from './embed-with-cache.ts';

/** Wraps an embedder and records every batch it is asked to embed. */
function recording(inner: Embedder, batchSize: number): Embedder & { batches: string[][] } {
  const batches: string[][] = [];
  return {
    id: inner.id,
    dimension: inner.dimension,
    semantic: inner.semantic,
    cacheInStore: true,
    batchSize,
    batches,
    embed: async (texts, kind) => {
      batches.push([...texts]);
      return inner.embed(texts, kind);
    },
  };
}

describe('embedWithCache over a real SQLite store', () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evident-cache-'));
    store = await openSqliteStore(join(dir, 'evident.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('embeds misses in batches, once per distinct text, and serves repeats from the cache', async () => {
    const embedder = recording(new HashingEmbedder(64), 2);
    const texts = ['alpha', 'beta', 'alpha', 'gamma', 'delta'];
    const first = await embedWithCache({ store, embedder }, texts);
    expect(embedder.batches).toEqual([
      ['alpha', 'beta'],
      ['gamma', 'delta'],
    ]);
    expect(first).toHaveLength(5);
    expect(Array.from(first[2]!)).toEqual(Array.from(first[0]!));
    expect(Array.from(first[3]!)).toEqual(Array.from((await new HashingEmbedder(64).embed(['gamma'], 'document'))[0]!));

    embedder.batches.length = 0;
    const second = await embedWithCache({ store, embedder }, ['delta', 'epsilon', 'alpha']);
    expect(embedder.batches).toEqual([['epsilon']]);
    expect(Array.from(second[0]!)).toEqual(Array.from(first[4]!));
    const cached = await store.cachedEmbeddings(embedder.id, [embeddingContentHash('epsilon')]);
    expect(cached.size).toBe(1);
  });

  it('bypasses the cache for an embedder that is cheaper to run than to cache', async () => {
    const embedder = new HashingEmbedder(64);
    expect(embedder.cacheInStore).toBe(false);
    const [vector] = await embedWithCache({ store, embedder }, ['alpha']);
    expect(Array.from(vector!)).toEqual(Array.from((await embedder.embed(['alpha'], 'document'))[0]!));
    expect((await store.cachedEmbeddings(embedder.id, [embeddingContentHash('alpha')])).size).toBe(0);
  });

  it('keys the cache by embedder id', async () => {
    await embedWithCache({ store, embedder: recording(new HashingEmbedder(64), 8) }, ['alpha']);
    const other = recording(new HashingEmbedder(32), 8);
    await embedWithCache({ store, embedder: other }, ['alpha']);
    expect(other.batches).toEqual([['alpha']]);
  });

  it('refuses vectors of the wrong dimension without caching them', async () => {
    const liar: Embedder = {
      id: 'liar',
      dimension: 8,
      semantic: false,
      cacheInStore: true,
      batchSize: 4,
      embed: async (texts) => texts.map(() => new Float32Array(4)),
    };
    await expect(embedWithCache({ store, embedder: liar }, ['x'])).rejects.toThrow(ProviderError);
    expect((await store.cachedEmbeddings('liar', [embeddingContentHash('x')])).size).toBe(0);
  });
});
