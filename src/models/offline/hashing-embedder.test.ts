import { describe, expect, it } from 'vitest';
import { HashingEmbedder } from './hashing-embedder.ts';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

describe('HashingEmbedder', () => {
  const embedder = new HashingEmbedder();

  it('names its dimension in its id and returns unit vectors of that dimension', async () => {
    expect(embedder.id).toBe(`offline-hash-v1-${embedder.dimension}`);
    expect(new HashingEmbedder(256).id).toBe('offline-hash-v1-256');
    const [vector] = await embedder.embed(['Termination requires ninety days notice.'], 'document');
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector?.length).toBe(embedder.dimension);
    expect(Math.sqrt(dot(vector!, vector!))).toBeCloseTo(1, 5);
  });

  it('is deterministic across instances and calls', async () => {
    const text = 'Order CT-2024-0193 shipped to Berlin.';
    const [a] = await embedder.embed([text], 'document');
    const [b] = await new HashingEmbedder().embed([text], 'query');
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });

  it('puts texts that share words closer than unrelated texts, and tolerates inflections', async () => {
    const [query, related, inflected, unrelated] = await embedder.embed(
      [
        'contract termination notice period',
        'The notice period for termination of this contract is ninety days.',
        'Contracts terminated with notices',
        'The cafeteria serves lunch between noon and two.',
      ],
      'document',
    );
    expect(dot(query!, related!)).toBeGreaterThan(dot(query!, unrelated!) + 0.2);
    expect(dot(query!, inflected!)).toBeGreaterThan(dot(query!, unrelated!));
  });

  it('returns a zero vector for text without features rather than NaN', async () => {
    const [vector] = await embedder.embed(['  …  '], 'query');
    expect(Array.from(vector!).every((x) => x === 0)).toBe(true);
  });

  it('rejects an unusable dimension', () => {
    expect(() => new HashingEmbedder(3)).toThrow(RangeError);
  });
});
