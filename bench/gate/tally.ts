/**
 * What the gate bench counts, per set, fake model and agent: what the model proposed (its own decision, recorded by the
 * fake) against what the run returned. Pure functions over per-case outcomes, so the figures are easy to check.
 */
import { containsAnswerEntry, type AnswerEntry } from '../../src/eval/layers/score-answer.ts';

export type ModelName = 'overconfident' | 'honest';

/** One case run by one agent with one fake model. */
export interface CaseOutcome {
  set: string;
  model: ModelName;
  agent: string;
  id: string;
  question: string;
  /** The case's label: false for RGB negatives, MTRAG-UN unanswerable turns and paper-qa's unanswerable questions. */
  answerable: boolean | undefined;
  /** Whether the model's own decision was to answer. */
  proposed: boolean;
  proposal: string | null;
  /** Whether the proposed answer holds the gold values (containment); null without gold values or a proposal. */
  proposalRight: boolean | null;
  /** The run ended with an answer (answerable true). */
  returned: boolean;
  /** The run ended with a refusal (answerable false, or status refused). */
  refused: boolean;
  status: string;
  answer: string | null;
}

/** Whether an answer text holds every gold entry; null when there are no gold values to hold. */
export function rightByContainment(text: string | null, gold: readonly AnswerEntry[] | undefined): boolean | null {
  if (!gold?.length || text === null) return null;
  return gold.every((entry) => containsAnswerEntry(text, entry));
}

/** An overconfident proposal nothing supports: an answer to an unanswerable case, or a wrong one by containment. */
export const unsupported = (outcome: CaseOutcome): boolean =>
  outcome.proposed && (outcome.answerable === false || outcome.proposalRight === false);

export interface Tally {
  set: string;
  model: ModelName;
  agent: string;
  cases: number;
  proposed: number;
  /** overconfident: its unsupported proposals, and those the run refused. */
  unsupported: number;
  caught: number;
  /** overconfident: its proposals on unanswerable cases, and those the run refused. */
  unanswerableProposed: number;
  unanswerableCaught: number;
  /** honest: its proposals the run refused. */
  vetoed: number;
  /** Runs that ended with an answer, and runs that failed (neither answered nor refused). */
  returned: number;
  failed: number;
}

export function tally(outcomes: readonly CaseOutcome[]): Tally[] {
  const groups = new Map<string, CaseOutcome[]>();
  for (const outcome of outcomes) {
    const key = `${outcome.set}\u0000${outcome.model}\u0000${outcome.agent}`;
    groups.set(key, [...(groups.get(key) ?? []), outcome]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as CaseOutcome;
    const count = (test: (outcome: CaseOutcome) => boolean) => group.filter(test).length;
    const unanswerable = (o: CaseOutcome) => o.proposed && o.answerable === false;
    return {
      set: first.set,
      model: first.model,
      agent: first.agent,
      cases: group.length,
      proposed: count((o) => o.proposed),
      unsupported: count(unsupported),
      caught: count((o) => unsupported(o) && o.refused),
      unanswerableProposed: count(unanswerable),
      unanswerableCaught: count((o) => unanswerable(o) && o.refused),
      vetoed: count((o) => o.proposed && o.refused),
      returned: count((o) => o.returned),
      failed: count((o) => !o.returned && !o.refused),
    };
  });
}

export interface Rate {
  of: number;
  hit: number;
  rate: number | null;
}

const rate = (hit: number, of: number): Rate => ({ hit, of, rate: of ? hit / of : null });

export const percent = (r: Rate): string => (r.rate === null ? '–' : `${(r.rate * 100).toFixed(1)}%`);

export const CATCH_TARGET = 0.8;
export const VETO_TARGET = 0.1;

export interface Totals {
  /** The overconfident model's answers to unanswerable cases that the run refused (target ≥ 80%). */
  catchUnanswerable: Rate;
  /** … and to every unsupported case (unanswerable, or wrong by containment). */
  catchUnsupported: Rate;
  /** The honest model's answers that the run refused (target ≤ 10%). */
  veto: Rate;
}

/** The totals over the given tallies (all agents, or one). */
export function totalsOf(tallies: readonly Tally[]): Totals {
  const over = tallies.filter((t) => t.model === 'overconfident');
  const honest = tallies.filter((t) => t.model === 'honest');
  const sum = (rows: readonly Tally[], field: keyof Tally) => rows.reduce((n, row) => n + (row[field] as number), 0);
  return {
    catchUnanswerable: rate(sum(over, 'unanswerableCaught'), sum(over, 'unanswerableProposed')),
    catchUnsupported: rate(sum(over, 'caught'), sum(over, 'unsupported')),
    veto: rate(sum(honest, 'vetoed'), sum(honest, 'proposed')),
  };
}

/** The table's rows: the overconfident rows fill the catch columns, the honest rows the veto columns. */
export function tallyRows(tallies: readonly Tally[]): string[][] {
  return tallies.map((t) => {
    const over = t.model === 'overconfident';
    return [
      t.set,
      t.model,
      t.agent,
      String(t.cases),
      String(t.proposed),
      over ? `${t.unsupported} (${t.unanswerableProposed} unans.)` : '–',
      over ? `${t.caught} (${t.unanswerableCaught} unans.)` : '–',
      over ? percent(rate(t.caught, t.unsupported)) : '–',
      over ? '–' : String(t.vetoed),
      over ? '–' : percent(rate(t.vetoed, t.proposed)),
      String(t.returned),
      String(t.failed),
    ];
  });
}

export const TALLY_HEADERS = [
  'set',
  'model',
  'agent',
  'cases',
  'proposed',
  'unsupported',
  'caught',
  'catch rate',
  'vetoed',
  'veto rate',
  'returned',
  'failed',
];
