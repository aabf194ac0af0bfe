import { describe, expect, it } from 'vitest';
import { answerSchema, checkCitations, refusal, REFUSAL_TEXT, type Answer } from './answer.ts';

const evidence = [
  {
    chunkId: 'contracts/ct-1.md#0',
    docId: 'contracts/ct-1.md',
    text: 'The total fee is\n  EUR 48,000 per year,\npayable quarterly.',
  },
  { chunkId: 'policies/p.md#2', docId: 'policies/p.md', text: 'Employees must report incidents within “24 hours”.' },
];

const answer = (citations: Answer['citations']): Answer => ({
  answer: 'The fee is EUR 48,000 per year.',
  answerable: true,
  confidence: 0.8,
  citations,
  missing_information: [],
});

describe('answer contract', () => {
  it('validates the shape and the confidence range', () => {
    expect(answerSchema.safeParse(answer([])).success).toBe(true);
    expect(answerSchema.safeParse({ ...answer([]), confidence: 1.2 }).success).toBe(false);
    expect(
      answerSchema.safeParse({ ...answer([]), citations: [{ chunk_id: 'x', doc_id: 'y', source: 's' }] }).success,
    ).toBe(false);
    expect(answerSchema.safeParse({ ...answer([]), missing_information: undefined }).success).toBe(false);
  });

  it('builds a refusal that says what is missing', () => {
    const refused = refusal(['the 2025 price list'], 'Only the 2024 prices were found.');
    expect(answerSchema.parse(refused)).toEqual(refused);
    expect(refused.answer.startsWith(REFUSAL_TEXT)).toBe(true);
    expect(refused.answer).toContain('the 2025 price list');
    expect(refused.answer).toContain('Only the 2024 prices were found.');
    expect(refused).toMatchObject({
      answerable: false,
      confidence: 0,
      citations: [],
      missing_information: ['the 2025 price list'],
    });
  });
});

describe('checkCitations', () => {
  const base = { doc_id: 'contracts/ct-1.md', source: '/corpus/contracts/ct-1.md' };

  it('keeps a quote that occurs in the cited chunk, across line breaks and spacing', () => {
    const cited = { ...base, chunk_id: 'contracts/ct-1.md#0', quote: 'total fee is EUR 48,000 per year, payable' };
    const { answer: checked, dropped } = checkCitations(answer([cited]), evidence);
    expect(checked.citations).toEqual([cited]);
    expect(dropped).toEqual([]);
  });

  it('drops citations of unretrieved chunks, of another document, and with quotes not in the chunk', () => {
    const good = { ...base, chunk_id: 'contracts/ct-1.md#0', quote: 'payable quarterly.' };
    const unknown = { ...base, chunk_id: 'contracts/ct-1.md#7', quote: 'payable quarterly.' };
    const wrongDoc = { ...base, chunk_id: 'policies/p.md#2', quote: 'report incidents' };
    const invented = { ...base, chunk_id: 'contracts/ct-1.md#0', quote: 'EUR 50,000 per year' };
    const wrongCase = { ...base, chunk_id: 'contracts/ct-1.md#0', quote: 'the total fee' };
    const empty = { ...base, chunk_id: 'contracts/ct-1.md#0', quote: '   ' };
    const { answer: checked, dropped } = checkCitations(
      answer([good, unknown, wrongDoc, invented, wrongCase, empty]),
      evidence,
    );
    expect(checked.citations).toEqual([good]);
    expect(dropped.map((entry) => [entry.citation, entry.reason])).toEqual([
      [unknown, 'unknown_chunk'],
      [wrongDoc, 'doc_mismatch'],
      [invented, 'quote_not_found'],
      [wrongCase, 'quote_not_found'],
      [empty, 'quote_not_found'],
    ]);
    expect(checked.answer).toBe('The fee is EUR 48,000 per year.');
  });

  it('treats typographic and straight quotes alike', () => {
    const cited = { doc_id: 'policies/p.md', source: 's', chunk_id: 'policies/p.md#2', quote: 'within "24 hours"' };
    expect(checkCitations(answer([cited]), evidence).dropped).toEqual([]);
  });
});
