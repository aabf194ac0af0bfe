import { describe, expect, it } from 'vitest';
import type { FeedbackRecord } from '../../store/store.ts';
import { scoreAnswerExpectations } from '../layers/score-answer.ts';
import { adHocGroups, caseFromFeedback, expectationsOf, keyValuesOf } from './from-feedback.ts';
import { parseCases } from './read-cases.ts';

const record = (over: Partial<FeedbackRecord>): FeedbackRecord => ({
  id: 1,
  runId: 'run-1',
  rater: 'alice',
  rating: 'down',
  answer: 'The termination fee is EUR 30,000 [contracts/ct-2024-0193.md#0].',
  threadId: 't-1',
  agent: 'rag',
  user: 'alice',
  question: 'What is the termination fee of CT-2024-0193?',
  runStatus: 'answered',
  createdAt: '2026-12-05T10:00:00.000Z',
  updatedAt: '2026-12-05T10:00:00.000Z',
  ...over,
});

describe('evaluation cases from feedback', () => {
  it('finds the key values an answer turns on: ids, amounts, percentages, dates', () => {
    expect(keyValuesOf('CT-2024-0193 charges EUR 48,000, or 97.5% by 2024-03-01 (1 month).')).toEqual([
      'CT-2024-0193',
      '48,000',
      '97.5%',
      '2024-03-01',
    ]);
  });

  it('expects a correction as the answer: its key values, or the whole of a short one', () => {
    expect(expectationsOf(record({ correction: 'The fee is EUR 48,000.' }))).toEqual({
      answerable: true,
      answer_contains: ['48,000'],
    });
    expect(expectationsOf(record({ correction: 'Paris' }))).toEqual({ answerable: true, answer_contains: ['Paris'] });
    // A correction of a refusal: the documents hold the answer.
    expect(expectationsOf(record({ runStatus: 'refused', correction: 'EUR 48,000' })).answerable).toBe(true);
  });

  it('expects a thumbs-down without a correction not to give the same answer, or to refuse when it was unsupported', () => {
    const down = record({});
    expect(expectationsOf(down)).toEqual({ answer_differs_from: [down.answer] });
    expect(expectationsOf(record({ reason: 'unsupported' }))).toEqual({ answerable: false });
    expect(
      expectationsOf(record({ runStatus: 'refused', answer: "I don't know based on the current evidence." })),
    ).toMatchObject({ answerable: true, answer_differs_from: ["I don't know based on the current evidence."] });
  });

  it('expects a thumbs-up to be answered the same way again, or refused again', () => {
    expect(expectationsOf(record({ rating: 'up' }))).toEqual({
      answerable: true,
      answer_contains: ['30,000'],
    });
    expect(expectationsOf(record({ rating: 'up', runStatus: 'refused', answer: "I don't know." }))).toEqual({
      answerable: false,
    });
  });

  it('writes a case the cases reader accepts: the question as its asker, tags and the rating as its source', () => {
    const made = caseFromFeedback(record({ correction: 'EUR 48,000', reason: 'incorrect' }), ['legal']);
    expect(made).toMatchObject({
      id: 'feedback-run-1-alice',
      user: 'alice',
      groups: ['legal'],
      question: 'What is the termination fee of CT-2024-0193?',
      tags: ['feedback', 'feedback-down', 'feedback-correction', 'reason-incorrect', 'agent-rag'],
      source: { kind: 'feedback', run_id: 'run-1', rater: 'alice', rating: 'down', correction: 'EUR 48,000' },
    });
    const [parsed] = parseCases(JSON.stringify(made), 'cases.jsonl');
    expect(parsed?.evalCase).toEqual(made);
  });

  it("reads an ad-hoc principal's groups from its id, and none from a user's name", () => {
    expect(adHocGroups('groups:engineering,legal')).toEqual(['engineering', 'legal']);
    expect(adHocGroups('alice')).toBeUndefined();
  });

  it('fails the answer layer when the reported answer comes back, however it is spaced or cased', () => {
    const reported = ['The fee is EUR 30,000.'];
    expect(scoreAnswerExpectations(undefined, reported, 'the fee is  EUR 30000.').status).toBe('fail');
    expect(scoreAnswerExpectations(undefined, reported, 'The fee is EUR 48,000.').status).toBe('pass');
    expect(scoreAnswerExpectations(['48,000'], reported, 'The fee is EUR 30,000.').status).toBe('fail');
    expect(scoreAnswerExpectations(undefined, reported, null).status).toBe('fail');
    expect(scoreAnswerExpectations(undefined, undefined, 'anything').status).toBe('n/a');
  });
});
