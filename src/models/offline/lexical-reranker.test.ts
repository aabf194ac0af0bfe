import { describe, expect, it } from 'vitest';
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
});
