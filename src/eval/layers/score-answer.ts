import { containsNormalized, normalizeAnswerText } from './normalize-answer-text.ts';
import { notExpected, passOrFail, type LayerResult } from './layer-result.ts';
import { quoteList } from './score-rewrite.ts';

/** One expected element of an answer: a string, or alternatives of which any one will do. */
export type AnswerEntry = string | readonly string[];

/** Whether `text` holds the entry: the string, or one of its alternatives (normalised as `containsNormalized`). */
export function containsAnswerEntry(text: string, entry: AnswerEntry): boolean {
  return typeof entry === 'string'
    ? containsNormalized(text, entry)
    : entry.some((alternative) => containsNormalized(text, alternative));
}

/** How a missing entry reads in a detail: alternatives joined by `|`. */
const entryLabel = (entry: AnswerEntry): string => (typeof entry === 'string' ? entry : entry.join(' | '));

/**
 * The final answer must contain every expected entry (case-, whitespace- and digit-grouping-insensitive); an entry
 * that is a list is met by any one of its alternatives. `containment` is the share of entries met.
 */
export function scoreAnswer(
  expected: readonly AnswerEntry[] | undefined,
  answerText: string | null,
  status = 'answered',
): LayerResult {
  if (!expected?.length) return notExpected;
  if (answerText === null && status === 'interrupted') return { status: 'n/a', detail: 'waiting for an approval' };
  if (answerText === null) return passOrFail(false, 'no answer text', { containment: 0 });
  const missing = expected.filter((entry) => !containsAnswerEntry(answerText, entry));
  const containment = (expected.length - missing.length) / expected.length;
  return passOrFail(
    missing.length === 0,
    missing.length ? `missing ${quoteList(missing.map(entryLabel))}` : `contains all ${expected.length}`,
    { containment },
  );
}

/**
 * The answer layer with `answer_differs_from` too: the final answer must not be (normalised, whole) one that was
 * reported wrong, and must contain what `answer_contains` expects. Without `differsFrom` it is `scoreAnswer`.
 */
export function scoreAnswerExpectations(
  expected: readonly AnswerEntry[] | undefined,
  differsFrom: readonly string[] | undefined,
  answerText: string | null,
  status = 'answered',
): LayerResult {
  const contains = scoreAnswer(expected, answerText, status);
  if (!differsFrom?.length) return contains;
  if (answerText === null && status === 'interrupted') return { status: 'n/a', detail: 'waiting for an approval' };
  if (answerText === null) return passOrFail(false, 'no answer text');
  const given = normalizeAnswerText(answerText);
  if (differsFrom.some((reported) => normalizeAnswerText(reported) === given))
    return passOrFail(false, 'gave an answer reported wrong again', contains.metrics);
  if (contains.status === 'n/a') return passOrFail(true, 'differs from the answer reported wrong');
  return { ...contains, detail: `${contains.detail}; differs from the answer reported wrong` };
}
