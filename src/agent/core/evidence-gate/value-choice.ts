import type { QuestionView } from './question-view.ts';
import type { ValueTie } from './value-ties.ts';

/** Choosing among values tied about as well: the extreme a question asks for, or values one sentence adds up. */
export const SUPERLATIVE =
  /\b(?:maximum|max|largest|highest|longest|most|minimum|min|smallest|lowest|shortest|least)\b/iu;
const MINIMUM = /\b(?:minimum|min|smallest|lowest|shortest|least)\b/iu;

/** For a question asking the largest or smallest value, the extreme of the values tied about as well as the nearest. */
export function extremeOf(
  view: QuestionView,
  ties: readonly ValueTie[],
  nearest: ValueTie,
  tied: (tie: ValueTie) => boolean,
): ValueTie | undefined {
  if (!SUPERLATIVE.test(view.question)) return undefined;
  const numberOf = (tie: ValueTie): number => Number(/\d[\d,.]*/u.exec(tie.value)?.[0].replace(/,/g, '') ?? Number.NaN);
  const close = ties.filter((tie) => tie.score >= nearest.score / 2 && tied(tie) && Number.isFinite(numberOf(tie)));
  if (close.length < 2) return undefined;
  const sign = MINIMUM.test(view.question) ? -1 : 1;
  return close.reduce((pick, tie) => (sign * numberOf(tie) > sign * numberOf(pick) ? tie : pick));
}

/** Two values of one sentence joined as parts of one whole ("$12,500 plus $4.20 per parcel"), not as alternatives. */
export function compound(a: ValueTie, b: ValueTie): boolean {
  if (a.sentence !== b.sentence) return false;
  const [first, second] = a.at < b.at ? [a, b] : [b, a];
  const between = a.sentence.text.slice(first.at + first.value.length, second.at);
  return /\s(?:plus|\+)\s/u.test(between) && !/[;.。；]/u.test(between);
}
