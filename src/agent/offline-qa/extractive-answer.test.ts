import { describe, expect, it } from 'vitest';
import { evidenceChunk } from '../../testing/gate-answers.ts';
import { extractiveAnswer } from './extractive-answer.ts';

describe('the offline extractive answer', () => {
  it('leads with the values several needs read from one sentence once, not once per need', () => {
    const sentence = 'The request body must contain `customer_id`, `items` and `currency`.';
    const chunk = evidenceChunk('api/orders-api.md#0', `Create an order. ${sentence}`);
    const needs = ['Which fields must the request body contain?', 'Which fields are required?'];
    const answer = extractiveAnswer(
      {
        answerable: true,
        sufficiency: 0.9,
        reasons: [],
        missing_information: [],
        support: needs.map((query) => ({ query, chunk_id: chunk.chunk_id, sentence })),
      },
      [chunk],
      needs.length,
    );
    const lead = answer.answer.slice(0, answer.answer.indexOf(`${sentence} [1]`));
    expect(lead).not.toBe('');
    expect(lead.split(';')).toHaveLength(1);
    expect(answer.citations).toHaveLength(1);
  });
});
