import { describe, expect, it } from 'vitest';
import { containsAnswer, figuresOf, normalizeAnswer, supportRecall } from './musique-metrics.ts';

describe('MuSiQue metrics', () => {
  it('normalises answers and matches them as whole words', () => {
    expect(normalizeAnswer('The Émile-Zola  Prize!')).toBe('emile zola prize');
    expect(containsAnswer('Its first president was G. Stanley Hall [1].', ['G. Stanley Hall'])).toBe(true);
    expect(containsAnswer('It was Stanley Hall.', ['G. Stanley Hall', 'Stanley Hall'])).toBe(true);
    expect(containsAnswer('In 19634 it moved.', ['1963'])).toBe(false);
    expect(containsAnswer("I don't know based on the current evidence.", ['Paris'])).toBe(false);
  });

  it('measures the share of supporting paragraphs in the evidence', () => {
    expect(supportRecall(['p1', 'p3'], ['p1', 'p2'])).toBe(0.5);
    expect(supportRecall([], ['p1'])).toBe(0);
    expect(supportRecall(['p1'], [])).toBe(1);
  });

  it('averages the outcomes', () => {
    const base = { answered: true, evidence: 4, ms: 10, failed: false };
    const figures = figuresOf([
      { ...base, recall: 1, recallAt5: 1, allSupporting: true, contains: true },
      { ...base, recall: 0.5, recallAt5: 0, allSupporting: false, contains: false, answered: false, ms: 30 },
    ]);
    expect(figures).toMatchObject({
      questions: 2,
      supportRecall: 0.75,
      supportRecallAt5: 0.5,
      allSupportingRate: 0.5,
      containment: 0.5,
      answeredRate: 0.5,
      meanEvidence: 4,
      p50Ms: 30,
    });
  });
});
