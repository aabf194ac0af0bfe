import { describe, expect, it } from 'vitest';
import { LlmReranker, parseGrades } from './llm-reranker.ts';

describe('LlmReranker', () => {
  it('prompts with the question and numbered passages, and scores from the graded answer', async () => {
    const prompts: string[] = [];
    const reranker = new LlmReranker({
      modelId: 'fake',
      batchSize: 2,
      chat: async (prompt) => {
        prompts.push(prompt);
        return prompts.length === 1 ? '[1] 3\n[2] 9' : 'Sure!\n1: 7';
      },
    });
    const scores = await reranker.rerank('Who signed CT-2024-0193?', [
      { id: 'a', text: 'first passage', retrievalScore: 3 },
      { id: 'b', text: 'second\npassage', retrievalScore: 2 },
      { id: 'c', text: 'third passage', retrievalScore: 1 },
    ]);
    expect(reranker.id).toBe('llm:fake');
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toContain('Question: Who signed CT-2024-0193?');
    expect(prompts[0]).toContain('[1] first passage');
    expect(prompts[0]).toContain('[2] second passage');
    expect(prompts[1]).toContain('[1] third passage');
    expect(scores).toEqual([3, 9, 7]);
  });

  it('ranks ungraded passages below graded ones, in retrieval order', async () => {
    const reranker = new LlmReranker({ modelId: 'fake', chat: async () => '[2] 0\nI cannot judge the others.' });
    const scores = await reranker.rerank('q', [
      { id: 'a', text: 'a', retrievalScore: 3 },
      { id: 'b', text: 'b', retrievalScore: 2 },
      { id: 'c', text: 'c', retrievalScore: 1 },
    ]);
    expect(scores[1]).toBe(0);
    expect(scores[0]).toBeLessThan(0);
    expect(scores[0]).toBeGreaterThan(scores[2]!);
  });

  it('parses grades leniently and clamps them', () => {
    expect(parseGrades('[1] 12\n2. 4.5\n 3) 1\n[9] 5\n[1] 2', 3)).toEqual(
      new Map([
        [1, 10],
        [2, 4.5],
        [3, 1],
      ]),
    );
  });
});
