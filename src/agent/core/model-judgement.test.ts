import { describe, expect, it } from 'vitest';
import { validate } from '../../models/chat/structured-output.ts';
import { chunkContaining, groundExtracted, repairCitations } from './model-evidence.ts';
import { modelJudgementSchema, verdictFromJudgement } from './model-judgement.ts';
import type { Evidence } from '../../domain/evidence.ts';
import { SUFFICIENT_AT } from '../offline-qa/sufficiency.ts';

const item = (chunk_id: string, text: string): Evidence => ({
  chunk_id,
  doc_id: chunk_id.split('#')[0] ?? chunk_id,
  source: `/corpus/${chunk_id.split('#')[0]}`,
  title: '',
  heading: '',
  text,
  score: 1,
  queries: [],
});

const evidence = [
  item(
    'contracts/a.md#0',
    'Early termination by the Customer triggers a termination fee of $48,000. Notice is 90 days.',
  ),
  item('contracts/b.md#2', 'The monthly fee is $2,100, billed in arrears.'),
  item('zh/c.md#0', '如供应商连续两个月交货延迟，客户有权解除合同，并要求支付合同总额百分之十的违约金。'),
];

describe('grounding a model’s references to the evidence', () => {
  it('finds the chunk that holds a quote, preferring the one named, and refuses to move a short quote', () => {
    expect(chunkContaining(evidence, 'a termination fee of $48,000', { chunk_id: 'contracts/b.md#2' })?.chunk_id).toBe(
      'contracts/a.md#0',
    );
    expect(chunkContaining(evidence, 'fee', { chunk_id: 'contracts/b.md#2' })?.chunk_id).toBe('contracts/b.md#2');
    // "fee" is in both; named elsewhere it identifies nothing.
    expect(chunkContaining(evidence, 'fee', { chunk_id: 'nope#1' })).toBeUndefined();
    expect(chunkContaining(evidence, '百分之十的违约金', { chunk_id: 'zh/c.md#9' })?.chunk_id).toBe('zh/c.md#0');
    expect(chunkContaining(evidence, 'a fee of $99,000 payable at once')).toBeUndefined();
  });

  it('keeps extracted sentences the evidence contains (re-pointed, once each) and drops invented ones', () => {
    const grounded = groundExtracted(
      [
        {
          chunk_id: 'contracts/a.md',
          sentence: 'Early termination by the Customer triggers a termination fee of $48,000.',
        },
        {
          chunk_id: 'contracts/a.md#0',
          sentence: 'Early termination by the Customer triggers a termination fee of $48,000.',
        },
        { chunk_id: 'contracts/a.md#0', sentence: 'The termination fee is waived after two years.' },
      ],
      evidence,
    );
    expect(grounded.kept).toEqual([
      {
        chunk_id: 'contracts/a.md#0',
        sentence: 'Early termination by the Customer triggers a termination fee of $48,000.',
      },
    ]);
    expect(grounded.repaired).toBe(1);
    expect(grounded.dropped).toHaveLength(1);
  });

  it('re-points citations by quote and takes the document from the evidence; leaves unfindable ones to the citation check', () => {
    const { answer, repaired } = repairCitations(
      {
        answer: 'It is $48,000.',
        answerable: true,
        confidence: 0.9,
        missing_information: [],
        citations: [
          { chunk_id: 'a.md#0', doc_id: 'a', source: '', quote: 'triggers a termination fee of $48,000' },
          {
            chunk_id: 'contracts/a.md#0',
            doc_id: 'contracts/a.md',
            source: '',
            quote: 'a fee of $99,000 payable at once',
          },
        ],
      },
      evidence,
    );
    expect(repaired).toBe(1);
    expect(answer.citations[0]).toEqual({
      chunk_id: 'contracts/a.md#0',
      doc_id: 'contracts/a.md',
      source: '/corpus/contracts/a.md',
      quote: 'triggers a termination fee of $48,000',
    });
    expect(answer.citations[1]).toMatchObject({
      chunk_id: 'contracts/a.md#0',
      quote: 'a fee of $99,000 payable at once',
    });
  });
});

describe('the model’s judgement as a verdict', () => {
  const judged = (sufficiency: number, supporting: { chunk_id: string; sentence: string }[] = []) => ({
    supporting,
    sufficiency,
    reasons: ['states the fee'],
    missing_information: sufficiency < SUFFICIENT_AT ? ['the termination fee of X'] : [],
  });

  it('is answerable exactly at the shared threshold', () => {
    const sentence = [{ chunk_id: 'contracts/a.md#0', sentence: 'Notice is 90 days.' }];
    expect(verdictFromJudgement('q', judged(SUFFICIENT_AT, sentence), evidence)).toMatchObject({
      answerable: true,
      sufficiency: SUFFICIENT_AT,
    });
    const below = verdictFromJudgement('q', judged(SUFFICIENT_AT - 0.01, sentence), evidence);
    expect(below).toMatchObject({ answerable: false, missing_information: ['the termination fee of X'] });
  });

  it('carries only extracted sentences found in the evidence, and caps a sufficiency resting on invented ones', () => {
    const verdict = verdictFromJudgement(
      'What is the fee?',
      judged(0.9, [{ chunk_id: 'contracts/a.md#0', sentence: 'The fee is $1,000,000.' }]),
      evidence,
    );
    expect(verdict.answerable).toBe(false);
    expect(verdict.sufficiency).toBeLessThan(SUFFICIENT_AT);
    expect(verdict.support).toEqual([]);
    expect(verdict.reasons.at(-1)).toMatch(/occurs in the evidence/);
    expect(verdict.missing_information.length).toBeGreaterThan(0);
  });

  it('validates the schema, reading an earlier bare verdict as certain either way', () => {
    const legacy = validate(
      modelJudgementSchema,
      JSON.stringify({ answerable: false, reasons: [], missing_information: ['x'] }),
    );
    expect(legacy).toMatchObject({ success: true, data: { sufficiency: 0, supporting: [] } });
    expect(
      validate(
        modelJudgementSchema,
        JSON.stringify({ supporting: [], sufficiency: 1.5, reasons: [], missing_information: [] }),
      ).success,
    ).toBe(false);
    expect(validate(modelJudgementSchema, JSON.stringify({ reasons: [], missing_information: [] })).success).toBe(
      false,
    );
  });
});
