import { describe, expect, it } from 'vitest';
import { citeIn, evidenceChunk, proposedAnswer } from '../../../testing/gate-answers.ts';
import { gateAnswer } from './evidence-gate.ts';

const contract = {
  ...evidenceChunk(
    'msa.md#0',
    'Contract CT-2024-0193 is between Evident Demo Corp and Northwind Logistics. The Customer pays a fixed monthly platform fee of $12,500 plus $4.20 per delivered parcel. A termination for convenience during the first 24 months triggers a termination fee of $48,000.',
    'msa.md',
  ),
  heading: 'Pricing',
};
const sentence = (start: string): string => contract.text.split(/(?<=\.) /u).find((s) => s.startsWith(start)) ?? start;
const quotes = [citeIn(contract, sentence('The Customer pays')), citeIn(contract, sentence('A termination'))];
const question =
  'What are the monthly platform fee, the price per delivered parcel and the termination fee of CT-2024-0193?';

describe('the evidence gate on a question asking several things', () => {
  it('narrows an offline list of candidates to the one value the evidence ties to each need, each quoted', () => {
    const decision = gateAnswer({
      question,
      answer: proposedAnswer('$12,500, $4.20; $12,500, $4.20, $3.85; $48,000. The Customer pays [1]', quotes),
      evidence: [contract],
      reground: true,
    });
    expect(decision.verdict).toBe('answer');
    expect(decision.answer.answer).toMatch(/^\$12,500; \$4\.20; \$48,000\. /u);
    // Each sentence is quoted once, and every citation is one the answer points to.
    expect(decision.answer.citations.map((citation) => citation.quote)).toEqual([
      sentence('The Customer pays'),
      sentence('A termination'),
    ]);
    expect(decision.answer.answer).toContain('[2]');
  });

  it('splits the question itself when the run did not: one fee of three asked answers no question', () => {
    const decision = gateAnswer({
      question,
      answer: proposedAnswer('The monthly platform fee is $12,500. [1]', [quotes[0] as (typeof quotes)[0]]),
      evidence: [contract],
    });
    // The evidence ties every fee, so the answer is the evidence's own values, not the model's one.
    expect(decision.verdict).toBe('answer');
    expect(decision.answer.answer).toMatch(/\$12,500.*\$4\.20.*\$48,000/u);
  });

  it('refuses, naming the need, when one need is not tied by the evidence', () => {
    const decision = gateAnswer({
      question: 'What are the monthly platform fee, the parcel price and the liability cap of CT-2024-0193?',
      answer: proposedAnswer('$12,500, $4.20. The Customer pays [1]', [quotes[0] as (typeof quotes)[0]]),
      evidence: [contract],
      reground: true,
    });
    expect(decision.verdict).toBe('refuse');
    expect(decision.answer.missing_information.join(' ')).toMatch(/liability cap/u);
  });

  it('answers a joined question whose second part says "it", read as the first part’s subject', () => {
    const term = evidenceChunk('lic.md#0', 'Under CT-2023-0077 the initial term is 24 months from 1 September 2023.');
    const decision = gateAnswer({
      question: 'When did the initial term of CT-2023-0077 start, and how long does it last?',
      answer: proposedAnswer('1 September 2023; 24 months. Under CT-2023-0077 [1]', [citeIn(term, term.text)]),
      evidence: [term],
      reground: true,
    });
    expect(decision.verdict).toBe('answer');
    expect(decision.answer.answer).toMatch(/^1 September 2023; 24 months\. /u);
  });

  it('gives an untyped need its sentence and a typed one its value: never a value that answers neither', () => {
    const notes = evidenceChunk(
      'notes.txt#0',
      'Positions at the end of the quarter: AAPL 1,200 shares, MSFT 800 shares. Budget for the stablecoin pilot is $500K for 2024; spending to date is 38% of that budget.',
    );
    const decision = gateAnswer({
      question:
        'What were the AAPL and MSFT positions at the end of the quarter, and how much of the stablecoin budget has been spent?',
      answer: proposedAnswer('$500K, 38%. Positions at the end [1] Budget for [2]', [
        citeIn(notes, 'Positions at the end of the quarter: AAPL 1,200 shares, MSFT 800 shares.'),
        citeIn(notes, 'Budget for the stablecoin pilot is $500K for 2024; spending to date is 38% of that budget.'),
      ]),
      evidence: [notes],
      reground: true,
    });
    expect(decision.verdict).toBe('answer');
    expect(decision.answer.answer).toMatch(
      /^Positions at the end of the quarter: AAPL 1,200 shares, MSFT 800 shares; 38%\./u,
    );
    expect(decision.answer.answer).not.toMatch(/^\$500K/u);
  });
});
