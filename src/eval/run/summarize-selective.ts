import type { SelectiveCase } from '../layers/score-selective.ts';

/** One operating point: answer only when the confidence is at least `confidence`. */
export interface RiskCoveragePoint {
  confidence: number;
  answered: number;
  /** Answered, of the graded cases. */
  coverage: number;
  /** Wrong, of the answered. */
  risk: number;
}

/** Whether a confidence means what it says: of the answers given with confidence ≥ c, at least c are right. */
export interface ReliabilityRow {
  min_confidence: number;
  answered: number;
  right_share: number | null;
  /** right_share ≥ min_confidence; null when nothing was answered that confidently. */
  meets: boolean | null;
}

/**
 * Selective question answering over one agent's runs. Graded cases are those with a gold value or expected to be
 * unanswerable; coverage, risk, the curve and the reliability table are over them. An answer to a case with no gold
 * is not graded (it counts for false refusals only when the case is expected answerable).
 */
export interface SelectiveSummary {
  cases: number;
  answered: number;
  coverage: number | null;
  right: number;
  /** Right, of the graded cases that have a gold value (a refusal counts as not right). */
  right_rate: number | null;
  gold_cases: number;
  wrong: number;
  /** Wrong, of the answered; null when nothing was answered. */
  risk: number | null;
  refused: number;
  /** Refused, of the cases expected answerable (graded or not). */
  false_refusals: number;
  false_refusal_rate: number | null;
  answerable_cases: number;
  /** Runs left out: no answer expectation, an ungraded answer, or a run waiting for an approval. */
  not_graded: number;
  risk_coverage: RiskCoveragePoint[];
  reliability: ReliabilityRow[];
}

export const RELIABILITY_LEVELS = [0.5, 0.6, 0.7, 0.8, 0.9] as const;

const round = (value: number, digits = 4): number => Math.round(value * 10 ** digits) / 10 ** digits;
const ratio = (numerator: number, denominator: number): number | null =>
  denominator === 0 ? null : round(numerator / denominator);
/** An answer without a confidence (a run that failed) is the least confident of all. */
const confidenceOf = (item: SelectiveCase): number => item.confidence ?? 0;

/** Answers sorted by confidence, highest first; one point per distinct confidence (all answers at or above it). */
export function riskCoverageCurve(graded: readonly SelectiveCase[]): RiskCoveragePoint[] {
  const answers = graded.filter((item) => item.answered).sort((a, b) => confidenceOf(b) - confidenceOf(a));
  const points: RiskCoveragePoint[] = [];
  let wrong = 0;
  answers.forEach((item, index) => {
    if (item.wrong) wrong++;
    const next = answers[index + 1];
    if (next && confidenceOf(next) === confidenceOf(item)) return;
    const answered = index + 1;
    points.push({
      confidence: round(confidenceOf(item)),
      answered,
      coverage: round(answered / graded.length),
      risk: round(wrong / answered),
    });
  });
  return points;
}

export function reliabilityTable(graded: readonly SelectiveCase[]): ReliabilityRow[] {
  return RELIABILITY_LEVELS.map((level) => {
    const answers = graded.filter((item) => item.answered && confidenceOf(item) >= level - 1e-9);
    const rightShare = ratio(answers.filter((item) => item.right).length, answers.length);
    return {
      min_confidence: level,
      answered: answers.length,
      right_share: rightShare,
      meets: rightShare === null ? null : rightShare >= level - 1e-9,
    };
  });
}

/** Coverage, risk, strict right, refusals, the risk–coverage curve and the reliability table of one agent's runs. */
export function summarizeSelective(items: readonly SelectiveCase[]): SelectiveSummary {
  const graded = items.filter(
    (item) => item.answered !== null && (item.expected === 'answer' || item.expected === 'refuse'),
  );
  const answered = graded.filter((item) => item.answered).length;
  const wrong = graded.filter((item) => item.wrong).length;
  const right = graded.filter((item) => item.right).length;
  const goldCases = graded.filter((item) => item.expected === 'answer').length;
  const answerable = items.filter(
    (item) => item.answered !== null && (item.expected === 'answer' || item.expected === 'answer-ungraded'),
  );
  const falseRefusals = answerable.filter((item) => item.answered === false).length;
  return {
    cases: graded.length,
    answered,
    coverage: ratio(answered, graded.length),
    right,
    right_rate: ratio(right, goldCases),
    gold_cases: goldCases,
    wrong,
    risk: ratio(wrong, answered),
    refused: graded.length - answered,
    false_refusals: falseRefusals,
    false_refusal_rate: ratio(falseRefusals, answerable.length),
    answerable_cases: answerable.length,
    not_graded: items.length - graded.length,
    risk_coverage: riskCoverageCurve(graded),
    reliability: reliabilityTable(graded),
  };
}
