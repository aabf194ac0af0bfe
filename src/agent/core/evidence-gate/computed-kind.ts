import type { QuestionView } from './question-view.ts';

/** "above or below", "before or after": a question offering two answers takes one of them. */
const CHOICE =
  /\b(above|below|before|after|more|less|higher|lower|greater|fewer|earlier|later|longer|shorter)\s+or\s+(above|below|before|after|more|less|higher|lower|greater|fewer|earlier|later|longer|shorter)\b/iu;

/** The value a computed answer gives: "The 1991 where Model = X in t.csv is 172,000. From the row: …" → "172,000". */
function computedValue(answer: string): string {
  const first = (answer.split(/\sFrom the rows?:|\s\[\d+\]/u)[0] ?? '').trim().replace(/\.$/u, '');
  const at = first.lastIndexOf(' is ');
  return at >= 0 ? first.slice(at + 4) : first;
}

/**
 * Why a value computed over rows (or a row quoted) is not of the kind the question asks, or undefined when it is: a
 * question asking "yes or no" ("was the mill listed after the chapel?") or offering two answers ("above or below
 * 180,000?") is not answered by the cell or count a plan computed (172,000; "Strafford County Farm"), nor by a row.
 */
export function computedMisfit(view: QuestionView, answer: string): string | undefined {
  const value = computedValue(answer);
  const choice = CHOICE.exec(view.question);
  if (choice) {
    const offered = [choice[1], choice[2]] as string[];
    return offered.some((word) => value.toLowerCase().startsWith(word.toLowerCase()))
      ? undefined
      : `it asks ${offered.join(' or ')}, and the rows found give ${value}`;
  }
  // "are there more radio stations in milan or in rome?": one of the alternatives it names answers it.
  const alternative =
    /\bor\b/iu.test(view.question) && value !== '' && view.question.toLowerCase().includes(value.toLowerCase());
  if (view.type === 'yes_no' && !alternative && !/^(?:yes|no)\b/iu.test(value))
    return `it asks yes or no, and the rows found give ${value}`;
  return undefined;
}
