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

  it('keeps what the definition keeps, in order, on random near-duplicate pools, with and without a keep limit', () => {
    // Reference: every candidate against every kept one, full Jaccard over 3-word shingle strings.
    let state = 7;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    const shingles = (text: string) => {
      const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
      return new Set(
        words.length < 3 ? [words.join(' ')] : words.slice(0, -2).map((_, i) => words.slice(i, i + 3).join(' ')),
      );
    };
    const jaccard = (a: Set<string>, b: Set<string>) => {
      const shared = [...a].filter((x) => b.has(x)).length;
      return shared / (a.size + b.size - shared);
    };
    for (let round = 0; round < 40; round++) {
      const bases = Array.from({ length: 4 }, () => Array.from({ length: 20 + random(40) }, () => `w${random(30)}`));
      const texts: Record<string, string> = {};
      const pool = Array.from({ length: 30 }, (_, i) => {
        const words = [...(bases[random(bases.length)] as string[])];
        for (let edits = random(4); edits > 0; edits--) words[random(words.length)] = `x${random(5)}`;
        texts[`c${i}`] = words.join(' ');
        const channels: FusedCandidate['channels'] =
          random(2) === 0 ? { bm25: { rank: i + 1, score: 1 } } : { vector: { rank: i + 1, score: 0.5 } };
        return candidate(`c${i}`, 1 - i / 100, channels);
      });
      const threshold = [0.5, 0.8, 0.9][round % 3] as number;
      const expected: FusedCandidate[] = [];
      const sets: Set<string>[] = [];
      for (const c of pool) {
        const own = shingles(texts[c.chunkId] as string);
        const twin = sets.findIndex((other) => jaccard(other, own) >= threshold);
        if (twin < 0) {
          expected.push({ ...c, channels: { ...c.channels } });
          sets.push(own);
        } else {
          const keeper = expected[twin] as FusedCandidate;
          for (const [channel, hit] of Object.entries(c.channels))
            keeper.channels[channel as 'bm25'] ??= hit as { rank: number; score: number };
        }
      }
      const all = dedupeCandidates(pool, (id) => texts[id], { jaccardThreshold: threshold });
      expect(all.kept).toEqual(expected);
      const keep = 1 + random(4);
      const limited = dedupeCandidates(pool, (id) => texts[id], { jaccardThreshold: threshold, keep });
      expect(limited.kept).toEqual(expected.slice(0, keep));
    }
  });

  it('keeps what the definition keeps on pools too large for its first tables (60k shingles), call after call', () => {
    let state = 19;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    const shingleSet = (text: string) => {
      const words = text.split(' ');
      return new Set(words.slice(0, -2).map((_, i) => words.slice(i, i + 3).join(' ')));
    };
    for (const threshold of [0.9, 0.6, 0]) {
      const bases = Array.from({ length: 120 }, () =>
        Array.from({ length: 300 + random(200) }, () => `w${random(5000)}`),
      );
      const texts: Record<string, string> = {};
      const pool = Array.from({ length: 200 }, (_, i) => {
        const words = [...(bases[random(bases.length)] as string[])];
        for (let edits = random(3) * random(40); edits > 0; edits--) words[random(words.length)] = `x${random(50)}`;
        texts[`c${i}`] = words.join(' ');
        return candidate(`c${i}`, 1 - i / 1000, { bm25: { rank: i + 1, score: 1 } });
      });
      const expected: string[] = [];
      const sets: Set<string>[] = [];
      for (const c of pool) {
        const own = shingleSet(texts[c.chunkId] as string);
        const twin = sets.findIndex((other) => {
          const shared = [...other].filter((x) => own.has(x)).length;
          return shared / (other.size + own.size - shared) >= threshold;
        });
        if (twin >= 0) continue;
        expected.push(c.chunkId);
        sets.push(own);
      }
      if (threshold === 0.9) expect(expected.length).toBeGreaterThan(100);
      for (let call = 0; call < 2; call++) {
        const { kept } = dedupeCandidates(pool, (id) => texts[id], { jaccardThreshold: threshold });
        expect(kept.map((c) => c.chunkId)).toEqual(expected);
      }
    }
  });

  it('reads words as the definition does (NFKC, lowercase, letter and digit runs) in any script and case', () => {
    // Reference: the definition's normalised word lists, compared whole (equal lists) and as 3-word shingle sets.
    const forms = [
      'Supplier',
      'SUPPLIER',
      'supplier',
      'ｓｕｐｐｌｉｅｒ',
      'café',
      'CAFÉ',
      '供应商',
      '数据',
      'x1',
      'X1',
      '𝐀',
      'a',
    ];
    const separators = [' ', ', ', '-', '\n', '\u00a0', '。', '　'];
    const words = (text: string) =>
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [];
    const shingles = (list: string[]) =>
      new Set(list.length < 3 ? [list.join(' ')] : list.slice(0, -2).map((_, i) => list.slice(i, i + 3).join(' ')));
    const jaccard = (a: Set<string>, b: Set<string>) => {
      const shared = [...a].filter((x) => b.has(x)).length;
      return shared / (a.size + b.size - shared);
    };
    let state = 3;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    let collapsedPairs = 0;
    for (let round = 0; round < 200; round++) {
      const base = Array.from({ length: 3 + random(12) }, () => forms[random(forms.length)] as string);
      const variant = base.map((word) => (random(6) === 0 ? (forms[random(forms.length)] as string) : word));
      const join = (list: string[]) => list.map((word) => word + separators[random(separators.length)]).join('');
      const texts: Record<string, string> = { a: join(base), b: join(variant) };
      const a = words(texts.a as string);
      const b = words(texts.b as string);
      const same = a.length > 0 && (a.join(' ') === b.join(' ') || jaccard(shingles(a), shingles(b)) >= 0.9);
      const { kept } = dedupeCandidates(
        ['a', 'b'].map((id, i) => candidate(id, 1 - i / 10, {})),
        (id) => texts[id],
      );
      expect({ texts, collapsed: kept.length === 1 }).toEqual({ texts, collapsed: same });
      if (same) collapsedPairs++;
    }
    expect(collapsedPairs).toBeGreaterThan(20);
  });
});
