import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../testing/seeded-random.ts';
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

/** Seeded texts over words of several scripts, identifiers, stopwords and punctuation. */
function sampleTexts(count: number): string[] {
  const next = seededRandom(2026);
  const words = [
    'the',
    'of',
    'Termination',
    'notice',
    'ninety',
    'days',
    'CT-2024-0193',
    '/v2/orders/{id}',
    'v1.2',
    '$total',
    'naïve',
    'café',
    'It’s',
    '合同条款',
    '甲乙方',
    '违约责任',
    'ÆON',
    'shipments',
    'shipped',
    'harbour',
    'x',
    '1,250.50',
    'e-mail',
    "don't",
    'ΑΒΓ',
    'данные',
    '🙂',
  ];
  const marks = [' ', ' ', ' ', ', ', '. ', '; ', '\n\n', ' — '];
  return Array.from({ length: count }, (_, i) => {
    let text = '';
    const length = i === 0 ? 0 : Math.floor(next() * 400);
    for (let w = 0; w < length; w++)
      text +=
        (words[Math.floor(next() * words.length)] as string) + (marks[Math.floor(next() * marks.length)] as string);
    return text;
  });
}

describe('HashingEmbedder vectors', () => {
  // Stored stores and the published evaluation figures hold these vectors: any change to them is a new embedder id.
  it('are bit for bit the ones offline-hash-v1 has always produced', async () => {
    const texts = sampleTexts(60);
    for (const [dimension, digest] of GOLDEN) {
      const hash = createHash('sha256');
      for (const vector of await new HashingEmbedder(dimension).embed(texts, 'document'))
        hash.update(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
      expect(hash.digest('hex'), `dimension ${dimension}`).toBe(digest);
    }
  });
});

const GOLDEN: [number, string][] = [
  [512, '1713263503465398c082489112ee6b22cc60f661067290d21d2f8786393f4902'],
  [384, 'da7f8e6fdd40d409409208ec88037fec1304a0f1fa2f2397866e542ec1ade93a'],
  [16, '0ef1043895b831b31ff730d7154eeb18fe5d6f7cbf6652e201fd160103161a09'],
];
