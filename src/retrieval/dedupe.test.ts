import { describe, expect, it } from 'vitest';
import { dedupeCandidates } from './dedupe.ts';
import type { FusedCandidate } from './fuse.ts';

const candidate = (chunkId: string, score: number, channels: FusedCandidate['channels']): FusedCandidate => ({
  chunkId,
  score,
  channels,
});

const PARAGRAPH =
  'The supplier shall deliver the goods within thirty days of the order date and bears the cost of transport ' +
  'to the buyer premises, including insurance, customs duties and any fees charged by the carrier.';

describe('dedupeCandidates', () => {
  it('merges repeated chunk ids, keeping each channel best rank and the best score', () => {
    const { kept } = dedupeCandidates(
      [
        candidate('a', 0.03, { bm25: { rank: 2, score: 5 } }),
        candidate('b', 0.02, { bm25: { rank: 1, score: 7 } }),
        candidate('a', 0.01, { vector: { rank: 4, score: 0.8 }, bm25: { rank: 9, score: 1 } }),
      ],
      () => undefined,
    );
    expect(kept.map((c) => c.chunkId)).toEqual(['a', 'b']);
    expect(kept[0]).toEqual({
      chunkId: 'a',
      score: 0.03,
      channels: { bm25: { rank: 2, score: 5 }, vector: { rank: 4, score: 0.8 } },
    });
  });

  it('collapses identical normalised text into the better-ranked chunk and carries channel evidence over', () => {
    const texts: Record<string, string> = {
      first: PARAGRAPH,
      copy: `  ${PARAGRAPH.toUpperCase().replaceAll(',', ' ;')}  `,
      other: 'Payment is due within sixty days of the invoice.',
    };
    const { kept, collapsed } = dedupeCandidates(
      [
        candidate('first', 0.03, { bm25: { rank: 1, score: 9 } }),
        candidate('other', 0.02, { bm25: { rank: 2, score: 4 } }),
        candidate('copy', 0.01, { vector: { rank: 1, score: 0.9 } }),
      ],
      (id) => texts[id],
    );
    expect(kept.map((c) => c.chunkId)).toEqual(['first', 'other']);
    expect(collapsed.get('copy')).toBe('first');
    expect(kept[0]?.channels.vector).toEqual({ rank: 1, score: 0.9 });
  });

  it('collapses near-duplicates above the shingle threshold but keeps merely similar passages', () => {
    const nearCopy = PARAGRAPH.replace('thirty days', 'thirty  days').replace('carrier.', 'carrier');
    const similar = PARAGRAPH.replace('thirty days of the order date', 'ninety days of the signature of this contract');
    const texts: Record<string, string> = { a: PARAGRAPH, b: nearCopy, c: similar };
    const { kept } = dedupeCandidates(
      ['a', 'b', 'c'].map((id, i) => candidate(id, 1 - i / 10, { bm25: { rank: i + 1, score: 1 } })),
      (id) => texts[id],
    );
    expect(kept.map((c) => c.chunkId)).toEqual(['a', 'c']);
    const strict = dedupeCandidates(
      ['a', 'c'].map((id, i) => candidate(id, 1 - i / 10, {})),
      (id) => texts[id],
      { jaccardThreshold: 0.5 },
    );
    expect(strict.kept.map((c) => c.chunkId)).toEqual(['a']);
  });

  it('collapses exactly the pairs whose shingle Jaccard reaches the threshold', () => {
    // Reference: full Jaccard over 3-word shingles, as the definition says, for passages that differ by k words.
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const shingles = (list: string[]) => new Set(list.slice(0, -2).map((_, i) => list.slice(i, i + 3).join(' ')));
    const jaccard = (a: Set<string>, b: Set<string>) => {
      const shared = [...a].filter((x) => b.has(x)).length;
      return shared / (a.size + b.size - shared);
    };
    for (let changed = 0; changed <= 6; changed++) {
      const variant = words.map((word, i) => (i % 10 === 5 && i / 10 < changed ? `x${i}` : word));
      for (const threshold of [0.7, 0.8, 0.9]) {
        const expected = jaccard(shingles(words), shingles(variant)) >= threshold;
        const texts: Record<string, string> = { a: words.join(' '), b: variant.join(' ') };
        const { kept } = dedupeCandidates(
          ['a', 'b'].map((id, i) => candidate(id, 1 - i / 10, {})),
          (id) => texts[id],
          { jaccardThreshold: threshold },
        );
        expect({ changed, threshold, collapsed: kept.length === 1 }).toEqual({
          changed,
          threshold,
          collapsed: expected,
        });
      }
    }
  });
});
