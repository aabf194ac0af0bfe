import { describe, expect, it } from 'vitest';
import { analyzeForIndex } from '../text/analyzer.ts';
import { encodeAnalysedForm } from '../text/analysed-form.ts';
import { dedupeCandidates } from './dedupe.ts';
import type { FusedCandidate } from './fuse.ts';

const candidate = (chunkId: string, score: number, channels: FusedCandidate['channels']): FusedCandidate => ({
  chunkId,
  score,
  channels,
});

function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
}

const formsOf = (texts: Record<string, string>) =>
  new Map(Object.entries(texts).map(([id, text]) => [id, encodeAnalysedForm(text, analyzeForIndex(text))]));

describe('dedupeCandidates with stored analysed forms', () => {
  it('keeps, collapses and carries channels as reading the texts does, on random near-duplicate pools', () => {
    const pick = random(11);
    let collapsedTotal = 0;
    for (let round = 0; round < 60; round++) {
      // Few distinct words, so unrelated texts share many shingles (and prefix hashes) and twins sit at the threshold.
      const vocabulary = 8 + pick(60);
      const bases = Array.from({ length: 1 + pick(5) }, () =>
        Array.from({ length: 1 + pick(round % 2 === 0 ? 40 : 200) }, () => `W${pick(vocabulary)}`),
      );
      const texts: Record<string, string> = {};
      const pool = Array.from({ length: 20 + pick(60) }, (_, i) => {
        const words = [...(bases[pick(bases.length)] as string[])];
        for (let edits = pick(3) * pick(4); edits > 0; edits--) words[pick(words.length)] = `x${pick(4)}`;
        if (pick(10) === 0) words.length = pick(3);
        texts[`c${i}`] = words.join(pick(2) === 0 ? ' ' : ', ');
        const channels: FusedCandidate['channels'] =
          pick(3) === 0
            ? { bm25: { rank: i + 1, score: 1 }, vector: { rank: i + 2, score: 0.4 } }
            : pick(2) === 0
              ? { bm25: { rank: i + 1, score: 1 } }
              : { vector: { rank: i + 1, score: 0.5 } };
        return candidate(`c${i % 70 === 69 ? 0 : i}`, 1 - i / 100, channels);
      });
      const forms = formsOf(texts);
      const textOf = (id: string) => (id === 'c3' ? undefined : texts[id]);
      for (const keep of [undefined, 1 + pick(6)]) {
        const options = keep === undefined ? {} : { keep };
        const expected = dedupeCandidates(structuredClone(pool), textOf, options);
        const stored = dedupeCandidates(structuredClone(pool), textOf, { ...options, formOf: (id) => forms.get(id) });
        expect(stored).toEqual(expected);
        collapsedTotal += expected.collapsed.size;
      }
    }
    expect(collapsedTotal).toBeGreaterThan(200);
  });

  it('reads the forms: twins whose stored forms share no shingle are not compared', () => {
    const texts = {
      a: 'the supplier shall deliver the goods within thirty days',
      b: 'the supplier shall deliver the goods within thirty days',
    };
    const pool = [candidate('a', 1, {}), candidate('b', 0.9, {})];
    expect(dedupeCandidates(pool, (id) => texts[id as 'a']).kept).toHaveLength(1);
    const unrelated = formsOf({ a: 'one two three four', b: 'five six seven eight' });
    expect(dedupeCandidates(pool, (id) => texts[id as 'a'], { formOf: (id) => unrelated.get(id) }).kept).toHaveLength(
      2,
    );
  });

  it('reads the texts when a candidate has no form, or the threshold is below what the forms serve', () => {
    const texts = { a: 'w1 w2 w3 w4 w5 w6 w7 w8 w9 w10', b: 'w1 w2 w3 w4 w5 w6 w7 w8 w9 x' };
    const pool = [candidate('a', 1, {}), candidate('b', 0.9, {})];
    const forms = formsOf(texts);
    const half = (id: string) => (id === 'a' ? forms.get(id) : undefined);
    const unrelated = formsOf({ a: 'one two three four', b: 'five six seven eight' });
    // Jaccard 7/9: kept apart at 0.9, collapsed at 0.7 (which the stored prefixes cannot serve).
    expect(dedupeCandidates(pool, (id) => texts[id as 'a'], { formOf: half }).kept).toHaveLength(2);
    const at = { jaccardThreshold: 0.7, formOf: (id: string) => unrelated.get(id) };
    expect(dedupeCandidates(pool, (id) => texts[id as 'a'], at).kept).toHaveLength(1);
  });
});
