import { analyzeQuery } from '../../../text/analyzer.ts';
import type { QuestionView } from './question-view.ts';

/** The share of a described thing's terms a text must write for it to say which thing that is. */
const DESCRIBED_SHARE = 0.5;

/** A described thing as the gate holds it to the evidence beside the question's names: its head and clause. */
export const describedName = ({ head, clause }: { head: string; clause: string }): string => `${head} ${clause}`;

/**
 * Whether a text says which thing a description picks out: it writes at least half the clause's terms, and the
 * rarest of them in the run's evidence ("jousting", not "official" and "sport").
 */
export function tellsDescription(
  text: string,
  terms: readonly string[],
  weights?: ReadonlyMap<string, number>,
): boolean {
  const written = new Set(analyzeQuery(text));
  // The rarest: every term of the highest weight (all of them when the evidence weighs them alike).
  const top = Math.max(...terms.map((term) => weights?.get(term) ?? 0));
  const rarest = weights ? terms.filter((term) => (weights.get(term) ?? 0) === top) : [];
  return (
    terms.filter((term) => written.has(term)).length >= terms.length * DESCRIBED_SHARE &&
    rarest.every((term) => written.has(term))
  );
}

/**
 * The first thing the question describes without naming it ("the state whose official sport is jousting") that no
 * text of the evidence tells. A value stated about some other state, or a sentence sharing only the outer question's
 * words ("first arrived"), is about a thing the evidence never links to the description. Undefined when each is told.
 */
export function untoldDescription(
  view: QuestionView,
  texts: readonly string[],
  weights?: ReadonlyMap<string, number>,
): string | undefined {
  const all = texts.join('\n');
  const untold = view.described.find(({ terms }) => !tellsDescription(all, terms, weights));
  return untold && describedName(untold);
}
