import { refusal, type Answer, type Citation } from '../../../domain/answer.ts';
import { closingLabel } from './answer-head.ts';
import { informationNeed } from '../../offline-qa/information-need.ts';
import type { QuestionView } from './question-view.ts';

/** What the evidence gate made of an answer: let through (perhaps narrowed), refused, or passed unread (a refusal). */
export interface GateDecision {
  verdict: 'answer' | 'refuse' | 'pass';
  answer: Answer;
  reason: string;
  /** The cited sentence that states what an untyped question asks (its answer is that sentence). */
  statedBy?: Citation;
  /** A refusal no recomputation over the cited table mends: the value is of another kind than the question asks. */
  final?: boolean;
}

/** A refusal that says what is missing: the question's need and why the cited evidence does not meet it. */
export function refuse(view: QuestionView, why: string, reason: string): GateDecision {
  const missing = `${informationNeed(view.question)} (${why})`;
  return { verdict: 'refuse', answer: refusal([missing]), reason };
}

/** Best-ranked chunks of the run's evidence an offline answer may be re-grounded in. */
export const REGROUND_CHUNKS = 5;

/** The answer narrowed to one value, quoting the one sentence (or row) that states it. */
export function narrowedTo(
  answer: Answer,
  value: string,
  citation: Citation,
  confidence: number,
  reason: string,
): GateDecision {
  return {
    verdict: 'answer',
    answer: {
      ...answer,
      answer: `${value}. ${citation.quote} [1]${closingLabel(answer.answer)}`,
      answerable: true,
      confidence,
      citations: [citation],
      missing_information: [],
    },
    reason,
  };
}
