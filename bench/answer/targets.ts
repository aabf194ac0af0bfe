import type { EvalReport } from '../../src/eval/run/run-eval.ts';

/** The sets issues 13's and 25's dev targets are measured on; each is converted (or read) and run once. */
export const SUITES = ['rgb-negative', 'rgb-positive', 'mtrag', 'musique', 'wtq', 'paper-qa', 'sample'] as const;
export type SuiteName = (typeof SUITES)[number];

/** What a target read off a run: the figure, and the counts behind it when it is a share. */
export interface Measured {
  value: number | null;
  /** `18/30`, so a share over a handful of cases reads as such. */
  counts?: string;
  /** Why there is no value, when there is none. */
  note?: string;
}

export interface Target {
  /** The issue that set the target. */
  issue: 13 | 25;
  name: string;
  suite: SuiteName;
  agent: string;
  /** `min`: met at or above the threshold; `max`: met at or below it. */
  direction: 'min' | 'max';
  threshold: number;
  measure: (report: EvalReport, agent: string) => Measured;
}

export interface TargetOutcome {
  issue: 13 | 25;
  name: string;
  suite: SuiteName;
  agent: string;
  direction: 'min' | 'max';
  threshold: number;
  measured: number | null;
  counts: string | null;
  /** null when the suite did not run (skipped, or its data is absent) or no case of it scored the figure. */
  met: boolean | null;
  /** How far the measure is on the good side of the threshold (negative: missed by that much). */
  margin: number | null;
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

const AGENTS = ['rag', 'react', 'controllable'];

type IssueTarget = Omit<Target, 'issue'>;

/** Issue 13's dev targets, offline. The sample set's `semantic` cases are its paraphrases, `permission` its ACL cases. */
const ISSUE_13: readonly IssueTarget[] = [
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
  ...AGENTS.flatMap((agent): IssueTarget[] => [
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

const selectiveOf = (report: EvalReport, agent: string) => summaryOf(report, agent)?.selective;
/** Wrong, of the answered (nothing answered: nothing to measure). */
const risk = (report: EvalReport, agent: string): Measured => {
  const selective = selectiveOf(report, agent);
  if (!selective) return { value: null };
  return selective.answered ? share(selective.wrong, selective.answered) : { value: null, note: 'nothing answered' };
};
/** Answered, of the graded cases (on a set of unanswerable cases: answered when it should have refused). */
const answered = (report: EvalReport, agent: string): Measured => {
  const selective = selectiveOf(report, agent);
  return selective?.cases ? share(selective.answered, selective.cases) : { value: null };
};
/** Strictly right, of the cases with a gold value. */
const rightRate = (report: EvalReport, agent: string): Measured => {
  const selective = selectiveOf(report, agent);
  return selective?.gold_cases ? share(selective.right, selective.gold_cases) : { value: null };
};
const rightCount = (report: EvalReport, agent: string): Measured => {
  const selective = selectiveOf(report, agent);
  return selective?.gold_cases
    ? { value: selective.right, counts: `${selective.right}/${selective.gold_cases}` }
    : { value: null };
};
const wrongCount = (report: EvalReport, agent: string): Measured => {
  const selective = selectiveOf(report, agent);
  return selective?.cases ? { value: selective.wrong, counts: `of ${selective.answered} answered` } : { value: null };
};

/** The sets issue 25 bounds the risk on, with the name a target row shows. */
const RISK_SETS: readonly [SuiteName, string][] = [
  ['rgb-positive', 'RGB zh positive'],
  ['musique', 'MuSiQue'],
  ['wtq', 'WTQ'],
  ['paper-qa', 'paper-qa'],
  ['sample', 'sample set'],
];

/**
 * Issue 25's dev targets, offline, for every agent: wrong answers ≤ 10% of the answered; RGB zh negatives answered
 * ≤ 20%; MTRAG-UN refusal F1 ≥ 0.65 with false refusals ≤ 0.20; RGB zh positive strictly right ≥ 0.70; paper-qa ≥ 11
 * of 15 right and none wrong; the sample set ≥ 85% right (issue 13's `passed` ≥ 0.85 stays beside it).
 */
const ISSUE_25: readonly IssueTarget[] = AGENTS.flatMap((agent): IssueTarget[] => [
  ...RISK_SETS.map(
    ([suite, label]): IssueTarget => ({
      name: `${label}: risk (wrong of answered)`,
      suite,
      agent,
      direction: 'max',
      threshold: 0.1,
      measure: risk,
    }),
  ),
  {
    name: 'RGB zh negative: answered',
    suite: 'rgb-negative',
    agent,
    direction: 'max',
    threshold: 0.2,
    measure: answered,
  },
  { name: 'MTRAG-UN: refusal F1', suite: 'mtrag', agent, direction: 'min', threshold: 0.65, measure: refusalF1 },
  { name: 'MTRAG-UN: false refusals', suite: 'mtrag', agent, direction: 'max', threshold: 0.2, measure: falseRefusals },
  {
    name: 'RGB zh positive: right',
    suite: 'rgb-positive',
    agent,
    direction: 'min',
    threshold: 0.7,
    measure: rightRate,
  },
  { name: 'paper-qa: right', suite: 'paper-qa', agent, direction: 'min', threshold: 11, measure: rightCount },
  { name: 'paper-qa: wrong', suite: 'paper-qa', agent, direction: 'max', threshold: 0, measure: wrongCount },
  { name: 'sample set: right', suite: 'sample', agent, direction: 'min', threshold: 0.85, measure: rightRate },
]);

/** Both issues' targets; an issue-13 target that issue 25 tightens or restates stays, each row naming its issue. */
export const TARGETS: readonly Target[] = [
  ...ISSUE_13.map((target): Target => ({ issue: 13, ...target })),
  ...ISSUE_25.map((target): Target => ({ issue: 25, ...target })),
];

/** The agents a suite must run: every agent one of its targets names. */
export const agentsOfSuite = (suite: SuiteName, targets: readonly Target[] = TARGETS): string[] => [
  ...new Set(targets.filter((t) => t.suite === suite).map((t) => t.agent)),
];

/** A target read off its suite's report (or marked not run, with why). */
export function outcomeOf(target: Target, report: EvalReport | null, note?: string): TargetOutcome {
  const base = {
    issue: target.issue,
    name: target.name,
    suite: target.suite,
    agent: target.agent,
    direction: target.direction,
    threshold: target.threshold,
  };
  if (!report) return { ...base, measured: null, counts: null, met: null, margin: null, ...(note ? { note } : {}) };
  const measured = target.measure(report, target.agent);
  const { value, counts } = measured;
  // A small tolerance so that 0.85 measured as 0.8499999 (a rounded summary figure) is not read as a miss.
  // Nothing to measure (a --limit run without such a case) is neither met nor missed.
  if (value === null)
    return {
      ...base,
      measured: null,
      counts: null,
      met: null,
      margin: null,
      note: measured.note ?? 'nothing to measure (no case scored it)',
    };
  const margin = target.direction === 'min' ? value - target.threshold : target.threshold - value;
  return { ...base, measured: value, counts: counts ?? null, met: margin >= -1e-9, margin };
}

const figure = (value: number): string => (Number.isInteger(value) ? String(value) : value.toFixed(3));

/** How far a measure is from its threshold: `met, 0.050 to spare` / `MISSED by 3`. */
function marginText(outcome: TargetOutcome): string {
  if (outcome.met === null || outcome.margin === null) return outcome.note?.startsWith('skipped') ? 'skipped' : 'n/a';
  const by = figure(Math.abs(Math.round(outcome.margin * 1000) / 1000));
  if (!outcome.met) return `MISSED by ${by}`;
  return Math.abs(outcome.margin) < 1e-9 ? 'met, exactly' : `met, ${by} to spare`;
}

export const TARGET_HEADERS = ['issue', 'target', 'measured', 'met?'];

/** One row per target: `issue | target | measured | met (by how much)?`. */
export function targetRows(outcomes: readonly TargetOutcome[]): string[][] {
  return outcomes.map((outcome) => [
    `#${outcome.issue}`,
    `${outcome.name} (${outcome.agent}) ${outcome.direction === 'min' ? '≥' : '≤'} ${figure(outcome.threshold)}`,
    outcome.measured === null
      ? (outcome.note ?? 'n/a')
      : `${figure(outcome.measured)}${outcome.counts ? ` (${outcome.counts})` : ''}`,
    marginText(outcome),
  ]);
}
