import { describe, expect, it } from 'vitest';
import { describeMissing, informationNeed, missingFromVerdict, needTopic } from './information-need.ts';

describe('information need', () => {
  it('turns a question into the noun phrase it asks for', () => {
    expect(informationNeed('What is the termination fee of CT-2023-0077?')).toBe('the termination fee of CT-2023-0077');
    expect(informationNeed('What are the risks of CT-2024-0193?')).toBe('the risks of CT-2024-0193');
    expect(informationNeed('How long is the notice period?')).toBe('the notice period');
    expect(informationNeed("What is CT-2024-0193's liability cap?")).toBe("CT-2024-0193's liability cap");
    expect(informationNeed('Tell me pricing for the Orders API')).toBe('the pricing for the Orders API');
    expect(informationNeed('How many days of leave do new staff get?')).toBe(
      'the number of days of leave new staff get',
    );
    expect(informationNeed('When does CT-2023-0077 expire?')).toBe('When does CT-2023-0077 expire');
    expect(needTopic('the termination fee of CT-2023-0077')).toBe('termination fee');
  });

  it('says what is missing and why, never the question again', () => {
    const base = {
      question: 'What is the termination fee of CT-2023-0077?',
      identifiers: ['CT-2023-0077'],
      related: 0,
      evidence: 3,
      kind: 'amount' as const,
    };
    expect(describeMissing({ ...base, identifiersFound: true })).toBe(
      'the termination fee of CT-2023-0077 (the evidence found mentions CT-2023-0077 but states no termination fee)',
    );
    expect(describeMissing({ ...base, identifiersFound: false })).toBe(
      'the termination fee of CT-2023-0077 (no retrieved evidence mentions CT-2023-0077)',
    );
    expect(describeMissing({ ...base, identifiersFound: false, evidence: 0 })).toBe(
      'the termination fee of CT-2023-0077 (no evidence was retrieved)',
    );
    const pricing = {
      question: 'What is the pricing of the Orders API?',
      identifiers: [],
      identifiersFound: false,
      evidence: 1,
      kind: 'amount' as const,
    };
    expect(describeMissing({ ...pricing, related: 1 })).toBe(
      'the pricing of the Orders API (the evidence found is related but states no pricing)',
    );
    expect(describeMissing({ ...pricing, related: 0 })).toBe(
      'the pricing of the Orders API (no retrieved evidence is about pricing)',
    );
    expect(describeMissing({ ...pricing, question: 'When does it expire?', kind: 'date', related: 1 })).toBe(
      'When does it expire (the evidence found is related but states no date)',
    );
  });

  it("replaces a model's echo of the question with the need and its reasons", () => {
    const question = 'What is the termination fee of CT-2023-0077?';
    const reasons = ['The contract lists a monthly fee only.'];
    expect(
      missingFromVerdict(question, {
        answerable: false,
        reasons,
        missing_information: ['what is the termination fee of CT-2023-0077'],
      }),
    ).toEqual(['the termination fee of CT-2023-0077 (The contract lists a monthly fee only)']);
    expect(missingFromVerdict(question, { answerable: false, reasons, missing_information: [] })).toHaveLength(1);
    expect(
      missingFromVerdict(question, { answerable: false, reasons, missing_information: ['the 2024 fee schedule'] }),
    ).toEqual(['the 2024 fee schedule']);
    expect(missingFromVerdict(question, { answerable: true, reasons: [], missing_information: [] })).toEqual([]);
  });
});
