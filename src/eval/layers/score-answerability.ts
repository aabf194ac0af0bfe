import { notExpected, passOrFail, type LayerResult } from './layer-result.ts';

/** Whether the run answered: the answer's own flag, else a refused run; undefined when it ended with neither. */
export function answeredOf(answer: { answerable: boolean } | null, status: string): boolean | undefined {
  if (answer) return answer.answerable;
  return status === 'refused' ? false : undefined;
}

/**
 * Whether a run refused: the answerability layer's reading when it scored, else the answer's own flag or the run's
 * status. Every summary (refusal metrics, accuracy, selective answering) reads refusals this one way.
 */
export const refusedOf = (answerability: LayerResult, answerable: boolean | null, status: string): boolean =>
  answerability.metrics?.refused !== undefined
    ? answerability.metrics.refused === 1
    : answerable === false || status === 'refused';

/**
 * Per case: did the run answer exactly when the case is answerable? The metrics (`expected_refusal`, `refused`, 0 or 1)
 * feed the set-level refusal precision / recall / F1 and false-refusal rate.
 */
export function scoreAnswerability(
  expected: boolean | undefined,
  answered: boolean | undefined,
  status: string,
): LayerResult {
  if (expected === undefined) return notExpected;
  if (answered === undefined && status === 'interrupted') return { status: 'n/a', detail: 'waiting for an approval' };
  const refused = answered === false;
  const metrics = { expected_refusal: expected ? 0 : 1, refused: refused ? 1 : 0 };
  if (answered === undefined) return passOrFail(false, `no answer and no refusal (status ${status})`, metrics);
  const word = (answerable: boolean) => (answerable ? 'answered' : 'refused');
  return passOrFail(
    answered === expected,
    answered === expected ? word(answered) : `${word(answered)}, expected it to be ${word(expected)}`,
    metrics,
  );
}

/**
 * Set-level refusal quality. The positive class is "should refuse" (a case expected unanswerable), so precision is
 * about the refusals made and recall about the unanswerable cases.
 */
export interface RefusalMetrics {
  /** Of the refusals, how many were of unanswerable cases. */
  refusal_precision: number | null;
  /** Of the unanswerable cases, how many were refused. */
  refusal_recall: number | null;
  refusal_f1: number | null;
  /** Of the answerable cases, how many were refused. */
  false_refusal_rate: number | null;
  /** RGB's name for refusal recall (the share of cases with no answer in their passages that were refused). */
  rejection_rate: number | null;
  /** The denominators, so a rate can be read with its sample size. */
  unanswerable_cases: number;
  answerable_cases: number;
}

/** Set-level refusal quality, a refusal being the positive class; null where the denominator is zero. */
export function refusalMetrics(cases: readonly { expected_refusal: number; refused: number }[]): RefusalMetrics {
  const count = (expectedRefusal: number, refused: number) =>
    cases.filter((c) => c.expected_refusal === expectedRefusal && c.refused === refused).length;
  const truePositives = count(1, 1);
  const falsePositives = count(0, 1);
  const falseNegatives = count(1, 0);
  const answerable = falsePositives + count(0, 0);
  const ratio = (numerator: number, denominator: number) => (denominator === 0 ? null : numerator / denominator);
  const precision = ratio(truePositives, truePositives + falsePositives);
  const recall = ratio(truePositives, truePositives + falseNegatives);
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  return {
    refusal_precision: precision,
    refusal_recall: recall,
    refusal_f1: f1,
    false_refusal_rate: ratio(falsePositives, answerable),
    rejection_rate: recall,
    unanswerable_cases: truePositives + falseNegatives,
    answerable_cases: answerable,
  };
}
