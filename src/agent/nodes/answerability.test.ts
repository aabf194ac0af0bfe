import { describe, expect, it } from 'vitest';
import type { Evidence } from '../state.ts';
import { judgeOffline } from './answerability.ts';

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
});
