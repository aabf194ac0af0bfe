import type { EvalReport } from '../../src/eval/run/run-eval.ts';

/** The sets issue 13's dev targets are measured on; each is converted (or read) and run once. */
export const SUITES = ['rgb-negative', 'rgb-positive', 'mtrag', 'musique', 'wtq', 'sample'] as const;
export type SuiteName = (typeof SUITES)[number];

/** What a target read off a run: the figure, and the counts behind it when it is a share. */
export interface Measured {
  value: number | null;
  /** `18/30`, so a share over a handful of cases reads as such. */
  counts?: string;
}

export interface Target {
  name: string;
  suite: SuiteName;
  agent: string;
  /** `min`: met at or above the threshold; `max`: met at or below it. */
  direction: 'min' | 'max';
  threshold: number;
  measure: (report: EvalReport, agent: string) => Measured;
}

export interface TargetOutcome {
  name: string;
  suite: SuiteName;
  agent: string;
  direction: 'min' | 'max';
  threshold: number;
  measured: number | null;
  counts: string | null;
  /** null when the suite did not run (skipped, or its data is absent) or no case of it scored the figure. */
  met: boolean | null;
  note?: string;
}

const share = (numerator: number, denominator: number): Measured => ({
  value: denominator ? numerator / denominator : null,
  counts: `${numerator}/${denominator}`,
});
/** A rate with its denominator (the rate × n is a count by construction). */
const rate = (value: number | null | undefined, cases: number | null | undefined): Measured =>
  value === null || value === undefined
    ? { value: null }
    : { value, ...(cases ? { counts: `${Math.round(value * cases)}/${cases}` } : {}) };

const summaryOf = (report: EvalReport, agent: string) => report.summary[agent];

const rejectionRate = (report: EvalReport, agent: string): Measured =>
  rate(
    summaryOf(report, agent)?.answerability.rejection_rate,
    summaryOf(report, agent)?.answerability.unanswerable_cases,
  );
const accuracy = (report: EvalReport, agent: string): Measured =>
  rate(summaryOf(report, agent)?.answer.accuracy, summaryOf(report, agent)?.answer.accuracy_cases);
const refusalF1 = (report: EvalReport, agent: string): Measured => ({
  value: summaryOf(report, agent)?.answerability.refusal_f1 ?? null,
});
const falseRefusals = (report: EvalReport, agent: string): Measured =>
  rate(
    summaryOf(report, agent)?.answerability.false_refusal_rate,
    summaryOf(report, agent)?.answerability.answerable_cases,
  );
const containment = (report: EvalReport, agent: string): Measured => ({
  value: summaryOf(report, agent)?.answer.containment ?? null,
});
const passed = (report: EvalReport, agent: string): Measured => {
  const overall = summaryOf(report, agent)?.overall;
  return overall ? share(overall.passed, overall.cases) : { value: null };
};
/** The share of an agent's runs tagged `tag` that passed every scored layer. */
const taggedPassed =
  (tag: string) =>
  (report: EvalReport, agent: string): Measured => {
    const runs = report.cases.filter((result) => result.agent === agent && result.tags.includes(tag));
    return runs.length ? share(runs.filter((result) => result.passed).length, runs.length) : { value: null };
  };

const SAMPLE_AGENTS = ['rag', 'react', 'controllable'];

/** Issue 13's dev targets, offline. The sample set's `semantic` cases are its paraphrases, `permission` its ACL cases. */
export const TARGETS: readonly Target[] = [
  {
    name: 'RGB zh negative: rejection rate',
    suite: 'rgb-negative',
    agent: 'rag',
    direction: 'min',
    threshold: 0.6,
    measure: rejectionRate,
  },
  {
    name: 'RGB zh positive: accuracy',
    suite: 'rgb-positive',
    agent: 'rag',
    direction: 'min',
    threshold: 0.85,
    measure: accuracy,
  },
  { name: 'MTRAG-UN: refusal F1', suite: 'mtrag', agent: 'rag', direction: 'min', threshold: 0.7, measure: refusalF1 },
  {
    name: 'MTRAG-UN: false refusals',
    suite: 'mtrag',
    agent: 'rag',
    direction: 'max',
    threshold: 0.15,
    measure: falseRefusals,
  },
  {
    name: 'MuSiQue 100: containment',
    suite: 'musique',
    agent: 'rag',
    direction: 'min',
    threshold: 0.25,
    measure: containment,
  },
  { name: 'WTQ 150: containment', suite: 'wtq', agent: 'rag', direction: 'min', threshold: 0.35, measure: containment },
  {
    name: 'WTQ 150: containment',
    suite: 'wtq',
    agent: 'react',
    direction: 'min',
    threshold: 0.35,
    measure: containment,
  },
  ...SAMPLE_AGENTS.flatMap((agent): Target[] => [
    { name: 'sample set: passed', suite: 'sample', agent, direction: 'min', threshold: 0.85, measure: passed },
    {
      name: 'sample set: false refusals',
      suite: 'sample',
      agent,
      direction: 'max',
      threshold: 0.1,
      measure: falseRefusals,
    },
    {
      name: 'sample set: semantic (paraphrase) passed',
      suite: 'sample',
      agent,
      direction: 'min',
      threshold: 12 / 16,
      measure: taggedPassed('semantic'),
    },
    {
      name: 'sample set: permission passed',
      suite: 'sample',
      agent,
      direction: 'min',
      threshold: 1,
      measure: taggedPassed('permission'),
    },
  ]),
];

/** The agents a suite must run: every agent one of its targets names. */
export const agentsOfSuite = (suite: SuiteName, targets: readonly Target[] = TARGETS): string[] => [
  ...new Set(targets.filter((t) => t.suite === suite).map((t) => t.agent)),
];

/** A target read off its suite's report (or marked not run, with why). */
export function outcomeOf(target: Target, report: EvalReport | null, note?: string): TargetOutcome {
  const base = {
    name: target.name,
    suite: target.suite,
    agent: target.agent,
    direction: target.direction,
    threshold: target.threshold,
  };
  if (!report) return { ...base, measured: null, counts: null, met: null, ...(note ? { note } : {}) };
  const { value, counts } = target.measure(report, target.agent);
  // A small tolerance so that 0.85 measured as 0.8499999 (a rounded summary figure) is not read as a miss.
  // Nothing to measure (a --limit run without such a case) is neither met nor missed.
  if (value === null)
    return { ...base, measured: null, counts: null, met: null, note: 'nothing to measure (no case scored it)' };
  const met = target.direction === 'min' ? value >= target.threshold - 1e-9 : value <= target.threshold + 1e-9;
  return { ...base, measured: value, counts: counts ?? null, met };
}

const figure = (value: number): string => (Number.isInteger(value) ? String(value) : value.toFixed(3));

/** One row per target: `target | measured | met?`. */
export function targetRows(outcomes: readonly TargetOutcome[]): string[][] {
  return outcomes.map((outcome) => [
    `${outcome.name} (${outcome.agent}) ${outcome.direction === 'min' ? '≥' : '≤'} ${figure(outcome.threshold)}`,
    outcome.measured === null
      ? (outcome.note ?? 'n/a')
      : `${figure(outcome.measured)}${outcome.counts ? ` (${outcome.counts})` : ''}`,
    outcome.met === null ? (outcome.note?.startsWith('skipped') ? 'skipped' : 'n/a') : outcome.met ? 'yes' : 'NO',
  ]);
}
