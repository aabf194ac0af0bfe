import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { names } from './cited-reading.ts';
import { gateAnswer } from './evidence-gate.ts';

describe('the evidence gate on a thing the question describes without naming it', () => {
  const birds = evidenceChunk(
    'paragraphs/county-birds.md#0',
    "The heron became Lorn County's official bird in 1962. Other counties chose the lark.",
  );
  const flag = evidenceChunk('paragraphs/lorn-county.md#0', 'Lorn County chose its flag in 1871.');
  const question = 'When did the county whose official bird is the heron choose its flag?';

  it("holds the value to the question's own words, not to the clause that describes the thing", () => {
    const birdYear = gateAnswer({
      question,
      answer: proposedAnswer('1962', [citeIn(birds, "The heron became Lorn County's official bird in 1962.")]),
      evidence: [birds],
    });
    expect(birdYear.verdict).toBe('refuse');
    const flagYear = gateAnswer({
      question,
      answer: proposedAnswer('1871', [
        citeIn(birds, "The heron became Lorn County's official bird in 1962."),
        citeIn(flag, 'Lorn County chose its flag in 1871.'),
      ]),
      evidence: [birds, flag],
    });
    expect(flagYear.verdict).toBe('answer');
  });

  it('refuses a value from a passage sharing no name with the passage that tells the described thing', () => {
    const other = evidenceChunk('paragraphs/marsh-county.md#0', 'Marsh County chose its flag in 1905.');
    const decision = gateAnswer({
      question,
      answer: proposedAnswer('1905', [
        citeIn(birds, "The heron became Lorn County's official bird in 1962."),
        citeIn(other, 'Marsh County chose its flag in 1905.'),
      ]),
      evidence: [birds, other],
    });
    expect(decision.verdict).toBe('refuse');
  });

  it('refuses a value from evidence that never says which thing the clause describes', () => {
    const bay = evidenceChunk('paragraphs/bay.md#0', 'Captain Ames was the first to arrive at the bay, in 1820.');
    const decision = gateAnswer({
      question: 'Who first arrived at the island whose official bird is the heron?',
      answer: proposedAnswer('Captain Ames', [
        citeIn(bay, 'Captain Ames was the first to arrive at the bay, in 1820.'),
      ]),
      evidence: [bay],
    });
    expect(decision.verdict).toBe('refuse');
    expect(decision.answer.missing_information?.join(' ')).toContain('the island');
  });
});

describe('names written another way', () => {
  it('reads an acronym written out and a demonym of a place of several words as naming it', () => {
    expect(names('a citizen of the United States for nine years', 'US')).toBe(true);
    expect(names('the National Football League team', 'NFL')).toBe(true);
    expect(names('on the North American continent', 'North America')).toBe(true);
    expect(names('a citizen of the United Kingdom', 'US')).toBe(false);
    expect(names('on the South American continent', 'North America')).toBe(false);
  });
});
