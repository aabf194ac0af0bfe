import { containsNormalized } from './normalize-answer-text.ts';
import { notExpected, passOrFail, type LayerResult } from './layer-result.ts';
import { quoteList } from './score-rewrite.ts';

/** The final answer must contain every expected string (case-, whitespace- and digit-grouping-insensitive). */
export function scoreAnswer(expected: readonly string[] | undefined, answerText: string | null, status = 'answered'): LayerResult {
  if (!expected?.length) return notExpected;
  if (answerText === null && status === 'interrupted') return { status: 'n/a', detail: 'waiting for an approval' };
  if (answerText === null) return passOrFail(false, 'no answer text', { containment: 0 });
  const missing = expected.filter((needle) => !containsNormalized(answerText, needle));
  const containment = (expected.length - missing.length) / expected.length;
  return passOrFail(missing.length === 0, missing.length ? `missing ${quoteList(missing)}` : `contains all ${expected.length}`, { containment });
}
