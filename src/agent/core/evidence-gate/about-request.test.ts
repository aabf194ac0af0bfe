import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';

describe('the evidence gate on a request for what the evidence says about a named thing', () => {
  const monastery = evidenceChunk(
    'wiki/mount-everest.md#3',
    'Near the base of the north side of Everest lies Rongbuk Monastery, which has been called the sacred threshold.',
  );
  const cited = [
    citeIn(
      monastery,
      'Near the base of the north side of Everest lies Rongbuk Monastery, which has been called the sacred threshold.',
    ),
  ];

  it('answers with a sentence about the thing named: the request’s words ask, they name no attribute', () => {
    for (const question of [
      'I would like to know more about the Rongbuk Monastery.',
      'Can you please give me some basic information about Rongbuk Monastery?',
    ]) {
      const decision = gateAnswer({
        question,
        answer: proposedAnswer(cited[0]?.quote ?? '', cited),
        evidence: [monastery],
      });
      expect([question, decision.verdict]).toEqual([question, 'answer']);
    }
  });

  it('still refuses a sentence that does not name the thing, and a request naming nothing', () => {
    const other = gateAnswer({
      question: 'Tell me more about the Tengboche Monastery.',
      answer: proposedAnswer(cited[0]?.quote ?? '', cited),
      evidence: [monastery],
    });
    expect(other.verdict).toBe('refuse');
    const unnamed = gateAnswer({
      question: 'Can you tell me more about the details?',
      answer: proposedAnswer(cited[0]?.quote ?? '', cited),
      evidence: [monastery],
    });
    expect(unnamed.verdict).toBe('refuse');
  });
});
