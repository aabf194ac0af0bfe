import { describe, expect, it } from 'vitest';
import { analyzeForIndex } from '../../text/analyzer.ts';
import { encodeAnalysedForm } from '../../text/analysed-form.ts';
import { LexicalReranker } from './lexical-reranker.ts';

describe('LexicalReranker', () => {
  it('with equal retrieval scores, prefers the passage covering the rarer query terms, close together', async () => {
    const reranker = new LexicalReranker();
    const scores = await reranker.rerank('termination notice period for suppliers', [
      {
        id: 'far',
        text: 'Suppliers must register. ... Many pages later ... a period of review follows.',
        retrievalScore: 0.5,
      },
      { id: 'near', text: 'The termination notice period for suppliers is ninety days.', retrievalScore: 0.5 },
      { id: 'none', text: 'Lunch is served at noon.', retrievalScore: 0.5 },
    ]);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
    expect(scores[0]).toBeGreaterThan(scores[2]!);
  });

  it('keeps the retrieval order when the lexical evidence is the same', async () => {
    const reranker = new LexicalReranker();
    const text = 'Invoice CT-2024-0193 is overdue.';
    const scores = await reranker.rerank('CT-2024-0193', [
      { id: 'a', text, retrievalScore: 0.03 },
      { id: 'b', text, retrievalScore: 0.01 },
    ]);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  it('a zero retrieval weight ranks by lexical evidence alone; empty input gives no scores', async () => {
    const reranker = new LexicalReranker({ retrieval: 0 });
    const scores = await reranker.rerank('budget $500K', [
      { id: 'a', text: 'No amounts here.', retrievalScore: 1 },
      { id: 'b', text: 'The budget is $500K.', retrievalScore: 0 },
    ]);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
    expect(await reranker.rerank('x', [])).toEqual([]);
  });

  it('gives the same scores, bit for bit, from stored analysed forms as from the texts (a candidate without one reads its text)', async () => {
    const words = [
      'supplier',
      'Suppliers',
      'notice',
      'period',
      'CT-2024-0193',
      'the',
      'of',
      'termination',
      '合同',
      'café',
      'x1',
    ];
    let state = 5;
    const pick = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    const reranker = new LexicalReranker();
    for (let round = 0; round < 40; round++) {
      const query = Array.from({ length: 1 + pick(4) }, () => words[pick(words.length)]).join(' ');
      const candidates = Array.from({ length: 1 + pick(30) }, (_, i) => ({
        id: `c${i}`,
        text: Array.from({ length: pick(80) }, () => words[pick(words.length)]).join(pick(2) ? ' ' : ', '),
        retrievalScore: pick(100) / 100,
      }));
      const stored = candidates.map((candidate, i) =>
        i % 7 === 3
          ? candidate
          : { ...candidate, analysed: encodeAnalysedForm(candidate.text, analyzeForIndex(candidate.text)) },
      );
      expect(await reranker.rerank(query, stored)).toEqual(await reranker.rerank(query, candidates));
    }
    // The form is what is read: a form of another text scores as that text.
    const other = 'termination notice period';
    const [fromForm] = await reranker.rerank('termination notice', [
      { id: 'a', text: 'lunch', retrievalScore: 1, analysed: encodeAnalysedForm(other, analyzeForIndex(other)) },
      { id: 'b', text: 'lunch', retrievalScore: 0 },
    ]);
    const [fromText] = await reranker.rerank('termination notice', [
      { id: 'a', text: other, retrievalScore: 1 },
      { id: 'b', text: 'lunch', retrievalScore: 0 },
    ]);
    expect(fromForm).toBe(fromText);
  });
});
