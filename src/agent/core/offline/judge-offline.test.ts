import { describe, expect, it } from 'vitest';
import type { Evidence } from '../state.ts';
import { judgeOffline } from './judge-offline.ts';

const chunk = (text: string, title = 'Orders API'): Evidence => ({
  chunk_id: 'api/orders-api.md#0', doc_id: 'api/orders-api.md', source: '/x', title, heading: title, text, score: 1, queries: [],
});

describe('offline answerability', () => {
  it('finds evidence that mentions pricing without a price insufficient', () => {
    const verdict = judgeOffline(['What is the pricing of the Orders API?'], [chunk('Pricing\n\nPricing for the Orders API is discussed with your account manager.')]);
    expect(verdict.answerable).toBe(false);
    expect(verdict.reasons[0]).toMatch(/1 related chunk, none states the amount/);
  });

  it('finds the same topic with a stated price sufficient, citing the sentence', () => {
    const verdict = judgeOffline(['What is the pricing of the Orders API?'], [chunk('Pricing\n\nThe Orders API costs $0.002 per request.')]);
    expect(verdict.answerable).toBe(true);
    expect(verdict.support).toEqual([{ query: 'What is the pricing of the Orders API?', chunk_id: 'api/orders-api.md#0', sentence: 'The Orders API costs $0.002 per request.' }]);
  });

  it('takes any figure for a limit, not only money', () => {
    const evidence = [chunk('Rate limits\n\nEach partner may send 600 requests per minute.')];
    expect(judgeOffline(['What is the rate limit of the Orders API?'], evidence).answerable).toBe(true);
    expect(judgeOffline(['What is the rate limit of the Orders API?'], [chunk('Rate limits\n\nPartners should not send too many requests.')]).answerable).toBe(false);
  });

  it('answers a Chinese question from a Chinese passage and refuses when the passage lacks the answer', () => {
    const handbook = chunk('年假\n\n员工入职满一年后，每年享有十五天带薪年假。未休完的年假最多可以结转五天到下一年度。', '员工手册');
    const answered = judgeOffline(['员工每年有几天年假？'], [handbook]);
    expect(answered.answerable).toBe(true);
    expect(answered.support[0]?.sentence).toBe('员工入职满一年后，每年享有十五天带薪年假。');
    expect(judgeOffline(['员工的退休金是多少？'], [handbook]).answerable).toBe(false);
  });
});
