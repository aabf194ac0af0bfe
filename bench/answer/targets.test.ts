import { describe, expect, it } from 'vitest';
import { evalCaseSchema } from '../../src/eval/cases/eval-case.ts';
import type { EvalReport } from '../../src/eval/run/run-eval.ts';
import { scoreCase } from '../../src/eval/run/score-case.ts';
import { summarizeResults } from '../../src/eval/run/summarize-results.ts';
import type { AgentTrace } from '../../src/runs/run-trace.ts';
import { agentsOfSuite, outcomeOf, TARGETS, targetRows } from './targets.ts';
import { answerTrace as trace } from '../../src/testing/answer-trace.ts';

const negative = (id: string) =>
  evalCaseSchema.parse({ id, user: 'rgb', question: 'Q?', tags: ['rgb', 'negative'], expect: { answerable: false } });
const positive = (id: string) =>
  evalCaseSchema.parse({
    id,
    user: 'rgb',
    question: 'Q?',
    tags: ['rgb', 'positive'],
    expect: { answerable: true, answer_contains: [['B站', '哔哩哔哩']] },
  });

/** A report of runs as `eval run` builds it: each run scored, then summarised. */
function reportOf(runs: [ReturnType<typeof negative>, AgentTrace][], agent = 'rag'): EvalReport {
  const cases = runs.map(([evalCase, run]) => scoreCase(evalCase, agent, run, 10));
  return {
    meta: {
      cases_file: 'c.jsonl',
      corpus: 'corpus',
      agents: [agent],
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

const target = (name: string, agent = 'rag', issue: 13 | 25 = 13) => {
  const found = TARGETS.find((t) => t.name === name && t.agent === agent && t.issue === issue);
  if (!found) throw new Error(`no target ${name}`);
  return found;
};

describe('bench:answer targets', () => {
  it('reads RGB rejection rate and accuracy off the summary, with the counts behind them', () => {
    const report = reportOf([
      [negative('n1'), trace('信息不足', false)],
      [negative('n2'), trace('是B站', true)],
      [positive('p1'), trace('在哔哩哔哩播出', true)],
      [positive('p2'), trace('无法确定B站是否', false)],
    ]);
    expect(outcomeOf(target('RGB zh negative: rejection rate'), report)).toMatchObject({
      measured: 0.5,
      counts: '1/2',
      met: false,
    });
    // The refused positive holds the gold string yet counts as wrong.
    expect(outcomeOf(target('RGB zh positive: accuracy'), report)).toMatchObject({
      measured: 0.5,
      counts: '1/2',
      met: false,
    });
    expect(outcomeOf(target('MTRAG-UN: false refusals'), report)).toMatchObject({ measured: 0.5, met: false });
  });

  it('meets a max target at or below its threshold, and counts tagged cases per agent', () => {
    const report = reportOf([
      [positive('p1'), trace('B站', true)],
      [{ ...positive('p2'), tags: ['semantic'] }, trace('B站', true)],
      [{ ...negative('n1'), tags: ['permission'] }, trace('no', false)],
    ]);
    expect(outcomeOf(target('sample set: false refusals'), report)).toMatchObject({ measured: 0, met: true });
    expect(outcomeOf(target('sample set: semantic (paraphrase) passed'), report)).toMatchObject({
      measured: 1,
      counts: '1/1',
      met: true,
    });
    expect(outcomeOf(target('sample set: permission passed'), report)).toMatchObject({ measured: 1, met: true });
    expect(outcomeOf(target('sample set: passed', 'react'), report)).toMatchObject({
      measured: null,
      met: null,
      note: 'nothing to measure (no case scored it)',
    });
    expect(targetRows([outcomeOf(target('sample set: passed', 'react'), report)])[0]?.[3]).toBe('n/a');
  });

  it('marks the targets of a set that did not run as skipped, and prints one row each', () => {
    const skipped = outcomeOf(target('MTRAG-UN: refusal F1'), null, 'skipped: ../shared is absent');
    expect(skipped).toMatchObject({ met: null, measured: null });
    expect(targetRows([skipped])).toEqual([
      ['#13', 'MTRAG-UN: refusal F1 (rag) ≥ 0.700', 'skipped: ../shared is absent', 'skipped'],
    ]);
    // Issue 25's targets hold for every agent, so every set runs all three.
    expect(agentsOfSuite('sample')).toEqual(['rag', 'react', 'controllable']);
    expect(agentsOfSuite('wtq')).toEqual(['rag', 'react', 'controllable']);
    expect(agentsOfSuite('paper-qa')).toEqual(['rag', 'react', 'controllable']);
  });

  it('reads issue 25 off the selective summary: risk, answered, strict right and wrong, with the margin', () => {
    const paper = (id: string, gold: string[] | null) =>
      evalCaseSchema.parse({
        id,
        user: 'anyone',
        question: 'How many words of English Wikipedia were used?',
        expect: gold ? { answerable: true, answer_contains: gold } : { answerable: false },
      });
    const report = reportOf([
      [paper('b1', ['2,500M']), trace('2,500M words. English Wikipedia (2,500M words). [1]', true)],
      [paper('b2', ['2,500M']), trace('800M words, 2015, 2,500M words. [1]', true)],
      [paper('b3', ['2,500M']), trace('Not found.', false)],
      [paper('bu1', null), trace('No.', false)],
    ]);
    expect(outcomeOf(target('paper-qa: risk (wrong of answered)', 'rag', 25), report)).toMatchObject({
      measured: 0.5,
      counts: '1/2',
      met: false,
    });
    const right = outcomeOf(target('paper-qa: right', 'rag', 25), report);
    expect(right).toMatchObject({ measured: 1, counts: '1/3', met: false, margin: -10 });
    const wrong = outcomeOf(target('paper-qa: wrong', 'rag', 25), report);
    expect(wrong).toMatchObject({ measured: 1, met: false });
    expect(targetRows([right, wrong])).toEqual([
      ['#25', 'paper-qa: right (rag) ≥ 11', '1 (1/3)', 'MISSED by 10'],
      ['#25', 'paper-qa: wrong (rag) ≤ 0', '1 (of 2 answered)', 'MISSED by 1'],
    ]);
    const negatives = reportOf([
      [negative('n1'), trace('信息不足', false)],
      [negative('n2'), trace('是B站', true)],
      [negative('n3'), trace('无法回答', false)],
      [negative('n4'), trace('不知道', false)],
      [negative('n5'), trace('不知道', false)],
    ]);
    const answered = outcomeOf(target('RGB zh negative: answered', 'rag', 25), negatives);
    expect(answered).toMatchObject({ measured: 0.2, counts: '1/5', met: true });
    expect(targetRows([answered])[0]?.[3]).toBe('met, exactly');
    expect(outcomeOf(target('RGB zh negative: rejection rate'), negatives)).toMatchObject({ measured: 0.8, met: true });
    expect(targetRows([outcomeOf(target('RGB zh negative: rejection rate'), negatives)])[0]?.[3]).toBe(
      'met, 0.200 to spare',
    );
    // An agent that answered nothing has no risk to measure, and says why.
    const silent = reportOf([[positive('p1'), trace('不知道', false)]]);
    expect(outcomeOf(target('RGB zh positive: risk (wrong of answered)', 'rag', 25), silent)).toMatchObject({
      measured: null,
      met: null,
      note: 'nothing answered',
    });
  });
});
