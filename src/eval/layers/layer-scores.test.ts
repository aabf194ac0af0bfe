import { describe, expect, it } from 'vitest';
import type { Citation } from '../../domain/answer.ts';
import { firstFailure, LAYERS, type LayerName, type LayerResult } from './layer-result.ts';
import { answeredOf, refusalMetrics, scoreAnswerability } from './score-answerability.ts';
import { scoreAnswer } from './score-answer.ts';
import { scoreCitations } from './score-citations.ts';
import { scoreRerank, scoreRetrieval } from './score-retrieval.ts';
import { scoreRewrite } from './score-rewrite.ts';
import { scoreSchema } from './score-schema.ts';
import { isSubsequence, scoreTools } from './score-tools.ts';

describe('scoreRewrite', () => {
  it('passes when the standalone question contains every expected string, and names what is missing', () => {
    expect(scoreRewrite(['CT-2024-0193'], 'What is the termination fee of ct-2024-0193?').status).toBe('pass');
    const failed = scoreRewrite(['CT-2024-0193', 'fee'], 'And what is its fee?');
    expect(failed).toMatchObject({ status: 'fail' });
    expect(failed.detail).toContain('"CT-2024-0193"');
    expect(failed.detail).not.toContain('"fee"');
  });

  it('is n/a without an expectation or when the agent does not expose the question', () => {
    expect(scoreRewrite(undefined, 'x')).toMatchObject({ status: 'n/a', detail: 'no expectation' });
    expect(scoreRewrite(['x'], null)).toMatchObject({ status: 'n/a', detail: 'not exposed by the agent' });
  });
});

describe('scoreRetrieval and scoreRerank', () => {
  const ranked = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md'];

  it('reports hit@k, recall@k and MRR, and passes only when every relevant doc is within k', () => {
    const one = scoreRetrieval(['c.md'], ranked);
    expect(one).toMatchObject({ status: 'pass', metrics: { hit_at_10: 1, recall_at_10: 1, mrr_at_10: 1 / 3 } });
    const partial = scoreRetrieval(['b.md', 'z.md'], ranked);
    expect(partial).toMatchObject({ status: 'fail', metrics: { hit_at_10: 1, recall_at_10: 0.5, mrr_at_10: 0.5 } });
    expect(partial.detail).toContain('"z.md"');
    expect(scoreRetrieval(['f.md'], ranked, 5)).toMatchObject({
      status: 'fail',
      metrics: { hit_at_5: 0, mrr_at_5: 0 },
    });
  });

  it('judges rerank on the first 5 kept docs', () => {
    expect(scoreRerank(['e.md'], ranked)).toMatchObject({ status: 'pass', metrics: { hit_at_5: 1, recall_at_5: 1 } });
    expect(scoreRerank(['f.md'], ranked)).toMatchObject({ status: 'fail', metrics: { hit_at_5: 0 } });
  });

  it('is n/a when nothing is expected or the ranking is not exposed', () => {
    expect(scoreRetrieval(undefined, ranked).status).toBe('n/a');
    expect(scoreRetrieval([], ranked).status).toBe('n/a');
    expect(scoreRetrieval(['a.md'], null)).toMatchObject({ status: 'n/a', detail: 'not exposed by the agent' });
    expect(scoreRerank(['a.md'], null).status).toBe('n/a');
  });
});

describe('answerability', () => {
  it('reads the answer flag, else a refused status', () => {
    expect(answeredOf({ answerable: true }, 'answered')).toBe(true);
    expect(answeredOf(null, 'refused')).toBe(false);
    expect(answeredOf(null, 'failed')).toBeUndefined();
  });

  it('passes when the run answered exactly when the case is answerable', () => {
    expect(scoreAnswerability(true, true, 'answered')).toMatchObject({
      status: 'pass',
      metrics: { expected_refusal: 0, refused: 0 },
    });
    expect(scoreAnswerability(false, false, 'refused')).toMatchObject({
      status: 'pass',
      metrics: { expected_refusal: 1, refused: 1 },
    });
    expect(scoreAnswerability(true, false, 'refused')).toMatchObject({
      status: 'fail',
      detail: 'refused, expected it to be answered',
    });
    expect(scoreAnswerability(false, undefined, 'failed')).toMatchObject({
      status: 'fail',
      detail: 'no answer and no refusal (status failed)',
    });
    expect(scoreAnswerability(undefined, true, 'answered').status).toBe('n/a');
    expect(scoreAnswerability(true, undefined, 'interrupted')).toMatchObject({
      status: 'n/a',
      detail: 'waiting for an approval',
    });
  });

  it('computes refusal precision, recall, F1 and the false-refusal rate over a set', () => {
    const cases = [
      { expected_refusal: 1, refused: 1 }, // true refusal
      { expected_refusal: 1, refused: 0 }, // missed refusal
      { expected_refusal: 0, refused: 1 }, // false refusal
      { expected_refusal: 0, refused: 0 },
      { expected_refusal: 0, refused: 0 },
      { expected_refusal: 0, refused: 0 },
    ];
    const metrics = refusalMetrics(cases);
    expect(metrics.refusal_precision).toBe(0.5);
    expect(metrics.refusal_recall).toBe(0.5);
    expect(metrics.refusal_f1).toBe(0.5);
    expect(metrics.false_refusal_rate).toBe(0.25);
    expect(metrics).toMatchObject({ rejection_rate: 0.5, unanswerable_cases: 2, answerable_cases: 4 });
    expect(refusalMetrics([{ expected_refusal: 0, refused: 0 }])).toEqual({
      refusal_precision: null,
      refusal_recall: null,
      refusal_f1: null,
      false_refusal_rate: 0,
      rejection_rate: null,
      unanswerable_cases: 0,
      answerable_cases: 1,
    });
  });
});

describe('scoreCitations', () => {
  const evidence = [
    { chunk_id: 'contracts/a.md#0', doc_id: 'contracts/a.md', text: 'A termination fee of $48,000 applies.' },
    { chunk_id: 'policies/b.md#2', doc_id: 'policies/b.md', text: 'Meals are reimbursed up to $60 per day.' },
  ];
  const cite = (chunk_id: string, doc_id: string, quote: string): Citation => ({
    chunk_id,
    doc_id,
    source: doc_id,
    quote,
  });

  it('passes valid citations that cover every expected doc', () => {
    expect(
      scoreCitations(
        ['contracts/a.md'],
        [cite('contracts/a.md#0', 'contracts/a.md', 'termination fee of $48,000')],
        evidence,
      ),
    ).toMatchObject({
      status: 'pass',
      metrics: { validity: 1, recall: 1 },
    });
  });

  it('fails a citation of unretrieved evidence, of the wrong doc, or with a quote not in the chunk', () => {
    const result = scoreCitations(
      undefined,
      [
        cite('contracts/a.md#0', 'contracts/a.md', 'termination fee'),
        cite('contracts/z.md#0', 'contracts/z.md', 'anything'),
        cite('policies/b.md#2', 'contracts/a.md', 'Meals'),
        cite('policies/b.md#2', 'policies/b.md', 'up to $80 per day'),
      ],
      evidence,
    );
    expect(result.status).toBe('fail');
    expect(result.metrics?.validity).toBe(0.25);
    expect(result.detail).toContain('unknown chunk');
    expect(result.detail).toContain('doc mismatch');
    expect(result.detail).toContain('quote not found');
  });

  it('fails recall when an expected doc is not cited, and is n/a when nothing is cited or expected', () => {
    const result = scoreCitations(
      ['contracts/a.md', 'policies/b.md'],
      [cite('contracts/a.md#0', 'contracts/a.md', 'termination fee')],
      evidence,
    );
    expect(result).toMatchObject({ status: 'fail', metrics: { validity: 1, recall: 0.5 } });
    expect(result.detail).toContain('not cited: "policies/b.md"');
    expect(scoreCitations(undefined, [], evidence).status).toBe('n/a');
    expect(scoreCitations(['contracts/a.md'], [], null)).toMatchObject({
      status: 'n/a',
      detail: 'not exposed by the agent',
    });
  });
});

describe('scoreSchema', () => {
  const valid = { answer: 'x', answerable: true, confidence: 0.5, citations: [], missing_information: [] };

  it('accepts the answer contract and names the fields of one that breaks it', () => {
    expect(scoreSchema(valid, 'answered')).toMatchObject({ answer: valid, result: { status: 'pass' } });
    const broken = scoreSchema({ ...valid, confidence: 2, citations: [{ chunk_id: 'a#0' }] }, 'answered');
    expect(broken.answer).toBeNull();
    expect(broken.result.status).toBe('fail');
    expect(broken.result.detail).toContain('confidence');
    expect(broken.result.detail).toContain('citations.0.quote');
  });

  it('fails a run without an answer, except one waiting for an approval', () => {
    expect(scoreSchema(null, 'failed').result).toMatchObject({
      status: 'fail',
      detail: 'no final answer (status failed)',
    });
    expect(scoreSchema(null, 'interrupted').result.status).toBe('n/a');
  });
});

describe('scoreAnswer', () => {
  it('checks containment of every expected string after normalisation', () => {
    expect(scoreAnswer(['$48,000', 'ninety days'], 'A fee of $48000; notice of NINETY  days.')).toMatchObject({
      status: 'pass',
      metrics: { containment: 1 },
    });
    expect(scoreAnswer(['48,000', '36 months'], 'A fee of 48000.')).toMatchObject({
      status: 'fail',
      metrics: { containment: 0.5 },
      detail: 'missing "36 months"',
    });
    expect(scoreAnswer(['x'], null).status).toBe('fail');
    expect(scoreAnswer(['x'], null, 'interrupted').status).toBe('n/a');
    expect(scoreAnswer(undefined, 'anything').status).toBe('n/a');
  });

  it('takes a list entry as alternatives, any one of which meets it', () => {
    expect(scoreAnswer([['B站', '哔哩哔哩'], '2009'], '它由哔哩哔哩于2009年创办。')).toMatchObject({
      status: 'pass',
      metrics: { containment: 1 },
    });
    expect(scoreAnswer([['十六', '16'], '大会'], '第16次')).toMatchObject({
      status: 'fail',
      metrics: { containment: 0.5 },
      detail: 'missing "大会"',
    });
    expect(scoreAnswer([['1.32万亿欧元', '1.3万亿美元']], '约6万亿')).toMatchObject({
      status: 'fail',
      detail: 'missing "1.32万亿欧元 | 1.3万亿美元"',
    });
  });
});

describe('scoreTools', () => {
  const call = (name: string, arguments_valid?: boolean) => ({
    name,
    arguments: { q: name },
    ok: true,
    ...(arguments_valid === undefined ? {} : { arguments_valid }),
  });

  it('checks order as a subsequence', () => {
    expect(isSubsequence(['a', 'c'], ['a', 'b', 'c'])).toBe(true);
    expect(isSubsequence(['c', 'a'], ['a', 'b', 'c'])).toBe(false);
    expect(isSubsequence([], [])).toBe(true);
  });

  it('passes expected ⊆ called, no forbidden call, the order kept and valid arguments', () => {
    const calls = [call('knowledge_base', true), call('table_query', true), call('knowledge_base', true)];
    expect(
      scoreTools(
        { expected: ['table_query'], forbidden: ['save_memory'], order: ['knowledge_base', 'table_query'] },
        calls,
      ),
    ).toMatchObject({
      status: 'pass',
      detail: 'knowledge_base → table_query → knowledge_base',
    });
  });

  it('names each broken rule', () => {
    const result = scoreTools(
      { expected: ['table_query'], forbidden: ['save_memory'], order: ['save_memory', 'knowledge_base'] },
      [call('knowledge_base', false), call('save_memory')],
    );
    expect(result.status).toBe('fail');
    expect(result.detail).toContain('not called: "table_query"');
    expect(result.detail).toContain('forbidden but called: "save_memory"');
    expect(result.detail).toContain('order save_memory → knowledge_base not followed');
    expect(result.detail).toContain('invalid arguments: knowledge_base');
    expect(result.metrics).toEqual({ arguments_valid: 0 });
  });

  it('judges arguments even without an expectation, and is n/a with neither calls nor expectation', () => {
    expect(scoreTools(undefined, [call('table_query', false)]).status).toBe('fail');
    expect(scoreTools(undefined, [call('custom_tool')]).status).toBe('pass');
    expect(scoreTools(undefined, []).status).toBe('n/a');
    expect(scoreTools({ expected: ['table_query'] }, null)).toMatchObject({
      status: 'n/a',
      detail: 'not exposed by the agent',
    });
  });
});

describe('firstFailure', () => {
  const layers = (statuses: Partial<Record<LayerName, LayerResult['status']>>): Record<LayerName, LayerResult> =>
    Object.fromEntries(LAYERS.map((layer) => [layer, { status: statuses[layer] ?? 'pass', detail: '' }])) as Record<
      LayerName,
      LayerResult
    >;

  it('is the earliest failing layer in pipeline order, skipping n/a', () => {
    expect(firstFailure(layers({ answer: 'fail', retrieval: 'fail' }))).toBe('retrieval');
    expect(firstFailure(layers({ rewrite: 'n/a', retrieval: 'n/a', tools: 'fail' }))).toBe('tools');
    expect(firstFailure(layers({ rewrite: 'n/a', citations: 'fail', schema: 'fail' }))).toBe('citations');
    expect(firstFailure(layers({ rewrite: 'n/a' }))).toBeNull();
  });

  it('follows rewrite → retrieval → rerank → answerability → citations → schema → answer → tools', () => {
    expect(LAYERS).toEqual([
      'rewrite',
      'retrieval',
      'rerank',
      'answerability',
      'citations',
      'schema',
      'answer',
      'tools',
    ]);
  });
});
