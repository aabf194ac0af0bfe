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

/** A year, a decade or an ordinal a question writes ("in 2010", "in the 1950s", "tied for 4th"): a filter on rows. */
const ROW_QUALIFIER = /(?<![\p{L}\p{N}])(?:(1[5-9]\d\d|20\d\d)(s?)|(\d{1,3})(?:st|nd|rd|th))(?![\p{L}\p{N}])/giu;

const ANY_YEAR = /(?<!\d)(?:1[5-9]\d\d|20\d\d)(?!\d)/u;

/**
 * A year, decade or ordinal the question writes that the table query's conditions never use: "how many races in the
 * 1950s were not called by Bryan Field?" counted over every decade, "how many players tied for 4th place?" over every
 * place. The digits must appear after the query's FROM (a decade's first three: "BETWEEN 1950 AND 1959"), or, for a
 * year, some year must (a comparison the plan wrote out as the values it keeps).
 */
export function unusedQualifier(question: string, sql: string | undefined): string | undefined {
  if (!sql) return undefined;
  // What follows the table's name: its conditions, order and limit.
  const conditions = /\bFROM\s+(?:"(?:[^"]|"")*"|\S+)([\s\S]*)$/iu.exec(sql)?.[1] ?? '';
  for (const match of question.matchAll(ROW_QUALIFIER)) {
    const [written, year, decade, ordinal] = match;
    const digits = year ? (decade ? year.slice(0, 3) : year) : (ordinal as string);
    const used = new RegExp(`(?<!\\d)${digits}${year && decade ? '' : '(?!\\d)'}`, 'u').test(conditions);
    // "before 1998" may be kept as the years it leaves ("IN ('September 14, 1997', …)"): some year is written.
    const yearsKept = year !== undefined && ANY_YEAR.test(conditions);
    if (!used && !yearsKept) return written;
  }
  return undefined;
}
