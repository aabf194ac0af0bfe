import { describe, expect, it } from 'vitest';
import type { SelectiveCase } from '../layers/score-selective.ts';
import { evalCaseSchema } from '../cases/eval-case.ts';
import { answerTrace } from '../../testing/answer-trace.ts';
import { scoreCase } from './score-case.ts';
import { summarizeAgent } from './summarize-results.ts';
import { reliabilityTable, riskCoverageCurve, summarizeSelective } from './summarize-selective.ts';

type Outcome = 'right' | 'wrong' | 'refused-gold' | 'refused-unanswerable' | 'ungraded';
const item = (outcome: Outcome, confidence: number | null = 0.5): SelectiveCase => {
  const expected =
    outcome === 'refused-unanswerable' ? 'refuse' : outcome === 'ungraded' ? 'answer-ungraded' : 'answer';
  const answered = outcome === 'right' || outcome === 'wrong' || outcome === 'ungraded';
  return {
    expected,
    answered,
    right: outcome === 'right' ? true : expected === 'answer' ? false : null,
    wrong: outcome === 'wrong' ? true : outcome === 'ungraded' ? null : false,
    confidence,
    head: null,
    detail: '',
  };
};

describe('summarizeSelective', () => {
  it('counts coverage, risk, right, wrong and refusals over the graded cases', () => {
    const summary = summarizeSelective([
      item('right', 0.9),
      item('right', 0.9),
      item('wrong', 0.6),
      item('refused-gold', 0),
      item('refused-unanswerable', 0),
      item('ungraded', 0.8),
    ]);
    expect(summary).toMatchObject({
      cases: 5,
      answered: 3,
      coverage: 0.6,
      right: 2,
      right_rate: 0.5,
      gold_cases: 4,
      wrong: 1,
      risk: 0.3333,
      refused: 2,
      false_refusals: 1,
      false_refusal_rate: 0.2,
      answerable_cases: 5,
      not_graded: 1,
    });
  });

  it('has no risk when nothing was answered', () => {
    expect(summarizeSelective([item('refused-unanswerable')])).toMatchObject({ answered: 0, risk: null, coverage: 0 });
    expect(summarizeSelective([])).toMatchObject({ cases: 0, coverage: null, right_rate: null, risk_coverage: [] });
  });

  it('draws one risk–coverage point per distinct confidence, most confident first', () => {
    const graded = [
      item('right', 0.9),
      item('wrong', 0.9),
      item('right', 0.7),
      item('wrong', null),
      item('refused-unanswerable'),
    ];
    expect(riskCoverageCurve(graded)).toEqual([
      { confidence: 0.9, answered: 2, coverage: 0.4, risk: 0.5 },
      { confidence: 0.7, answered: 3, coverage: 0.6, risk: 0.3333 },
      { confidence: 0, answered: 4, coverage: 0.8, risk: 0.5 },
    ]);
  });

  it('says, per confidence level, whether the answers given that confidently are right that often', () => {
    const table = reliabilityTable([item('right', 0.95), item('right', 0.85), item('wrong', 0.85), item('right', 0.6)]);
    expect(table).toEqual([
      { min_confidence: 0.5, answered: 4, right_share: 0.75, meets: true },
      { min_confidence: 0.6, answered: 4, right_share: 0.75, meets: true },
      { min_confidence: 0.7, answered: 3, right_share: 0.6667, meets: false },
      { min_confidence: 0.8, answered: 3, right_share: 0.6667, meets: false },
      { min_confidence: 0.9, answered: 1, right_share: 1, meets: true },
    ]);
    expect(reliabilityTable([item('refused-gold')])[0]).toEqual({
      min_confidence: 0.5,
      answered: 0,
      right_share: null,
      meets: null,
    });
  });
});

describe('the selective reading of scored runs', () => {
  it('keeps the answer confidence in the trace and reads refusals as the answerability layer does', () => {
    const gold = evalCaseSchema.parse({
      id: 'g',
      user: 'u',
      question: 'How many words of English Wikipedia?',
      expect: { answerable: true, answer_contains: ['2,500M'] },
    });
    const none = evalCaseSchema.parse({
      id: 'n',
      user: 'u',
      question: 'Refund policy?',
      expect: { answerable: false },
    });
    const runs = [
      scoreCase(gold, 'rag', answerTrace('2,500M words. English Wikipedia (2,500M words). [1]', true), 1),
      scoreCase(gold, 'rag', answerTrace('800M words, 2015, 2,500M words. [1]', true), 1),
      scoreCase(none, 'rag', answerTrace("I don't know.", false), 1),
      scoreCase(none, 'rag', answerTrace('A neighbouring policy says 30 days.', true), 1),
    ];
    expect(runs[0]?.trace.confidence).toBe(0.5);
    expect(runs.map((run) => [run.selective.right, run.selective.wrong])).toEqual([
      [true, false],
      [false, true],
      [null, false],
      [false, true],
    ]);
    // Containment passes the listed candidates; the strict reading does not.
    expect(runs[1]?.layers.answer.status).toBe('pass');
    expect(summarizeAgent(runs).selective).toMatchObject({ cases: 4, answered: 3, right: 1, wrong: 2, risk: 0.6667 });
  });
});
