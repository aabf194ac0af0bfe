import { describe, expect, it } from 'vitest';
import type { AgentTrace } from '../../runs/run-trace.ts';
import { evalCaseSchema } from '../cases/eval-case.ts';
import type { EvalReport } from '../run/run-eval.ts';
import { scoreCase } from '../run/score-case.ts';
import { summarizeResults } from '../run/summarize-results.ts';
import { renderEvalHtml } from './eval-html-report.ts';
import { rateCell, renderAnswerMetrics, renderEvalReport, renderSelective } from './render-eval-table.ts';
import { answerTrace as trace } from '../../testing/answer-trace.ts';

function reportOf(runs: [Record<string, unknown>, AgentTrace][]): EvalReport {
  const cases = runs.map(([raw, run], index) =>
    scoreCase(evalCaseSchema.parse({ id: `c${index}`, user: 'u', question: 'Q?', ...raw }), 'rag', run, 10),
  );
  return {
    meta: {
      cases_file: 'c.jsonl',
      corpus: 'corpus',
      agents: ['rag'],
      mode: 'offline',
      documents: 1,
      failed_documents: 0,
      started_at: '',
      elapsed_ms: 1,
    },
    summary: summarizeResults(cases),
    cases,
  };
}

describe('the answer figures in the reports', () => {
  const report = reportOf([
    [{ expect: { answerable: false } }, trace('Not in the passages.', false)],
    [{ expect: { answerable: false } }, trace('It is 42.', true)],
    [{ expect: { answerable: true, answer_contains: ['42'] } }, trace('It is 42.', true)],
    [{ expect: { answerable: true, answer_contains: ['42'] } }, trace('Not found.', false)],
    [{ expect: { answerable: true, answer_contains: ['42'] } }, trace('It is 41.', true)],
  ]);

  it('shows rejection rate, accuracy and false refusals with their counts', () => {
    expect(rateCell(0.5, 2)).toBe('1/2 (50%)');
    expect(rateCell(null, 0)).toBe('n/a');
    const table = renderAnswerMetrics(report.summary);
    const row = table.split('\n').find((line) => line.startsWith('rag')) ?? '';
    expect(row.split(/\s{2,}/)).toEqual([
      'rag',
      '1/2 (50%)',
      '1/3 (33%)',
      '0.500',
      '0.500',
      '0.500',
      '1/3 (33%)',
      '0.333',
    ]);
    expect(renderEvalReport(report)).toContain('Answers (rejection rate');
    expect(renderEvalHtml(report)).toContain('<h2>Answers</h2>');
  });

  it('shows coverage, risk, strict right and wrong per agent, with the curve and reliability table in HTML', () => {
    const row = renderSelective(report.summary)
      .split('\n')
      .find((line) => line.startsWith('rag'));
    // 5 graded: 3 answered (1 right, 2 wrong: the answered unanswerable and "41"), 2 refused, 1 of 3 answerable refused.
    expect(row?.split(/\s{2,}/)).toEqual(['rag', '3/5 (60%)', '2/3 (67%)', '1/3 (33%)', '2', '2', '1/3 (33%)']);
    expect(renderEvalReport(report)).toContain('Selective answering (coverage');
    const html = renderEvalHtml(report);
    expect(html).toContain('<h2>Selective answering</h2>');
    expect(html).toContain('rag: risk–coverage');
    expect(html).toContain('<caption>rag: reliability</caption>');
    expect(html).toContain('Wrong answers (2)');
    expect(report.summary.rag?.selective.reliability.map((r) => r.answered)).toEqual([3, 0, 0, 0, 0]);
  });

  it('leaves the answer table out of a set that expects nothing of answers', () => {
    const plain = reportOf([[{ expect: { relevant_docs: ['a.md'] } }, trace('x', true)]]);
    expect(renderAnswerMetrics(plain.summary)).toBe('');
    expect(renderEvalReport(plain)).not.toContain('Answers (');
    expect(renderEvalHtml(plain)).not.toContain('<h2>Answers</h2>');
    expect(renderSelective(plain.summary)).toBe('');
    expect(renderEvalHtml(plain)).not.toContain('Selective answering');
  });
});
