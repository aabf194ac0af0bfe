import type { AnswerType } from '../../../text/language.ts';
import { analyzeQuery } from '../../../text/analyzer.ts';
import { questionText } from '../../table-sql/table-question-to-sql-columns.ts';
import { detectIntent } from '../../table-sql/table-question-to-sql-intent.ts';
import { wordsOf } from '../../table-sql/table-question-to-sql-text.ts';
import type { CitedSentence } from './cited-reading.ts';

/**
 * Answers read from table rows ("Year: 2013 | Film: Antichrist | IMDb: 6.6/10"). A row states one value per column,
 * so a row answers a question only through one cell: the cell of the column the question asks ("the original
 * operator of princess dacil" → `Original Operator`), in a row that names what the question names (`Original Name:
 * Princess Dacil`). A whole row quoted, a cell of another column, or a row about something else is no answer;
 * counts, comparisons and superlatives over rows are computations no row states (the table route makes them).
 */

export interface RowCell {
  column: string;
  value: string;
}

/** The cells of a stored row line (`header: value | header: value`). */
export function rowCells(row: string): RowCell[] {
  return row.split(' | ').flatMap((part) => {
    const at = part.indexOf(': ');
    return at > 0 ? [{ column: part.slice(0, at).trim(), value: part.slice(at + 2).trim() }] : [];
  });
}

export type RowReading =
  | { found: true; value: string; sentence: CitedSentence; column: string }
  | { found: false; why: string; reason: string };

/** Types a row's cell cannot be checked against without computing (a yes/no, a list of rows). */
const COMPUTED: ReadonlySet<AnswerType> = new Set(['yes_no', 'list']);
const NUMERIC: ReadonlySet<AnswerType> = new Set(['number', 'amount', 'duration']);
/** A cell naming a column of the question's asked kind shares at least this share of the column name's terms. */
const ASKED_SHARE = 0.5;

const joined = (words: readonly string[]): string => ` ${words.join(' ')} `;

/**
 * Whether the question names a cell's value: its words in order ("princess dacil" names "Princess Dacil"), an aside in
 * brackets left out ("ann fargher" names "Ann Fargher (NZL)").
 */
function namedIn(questionWords: string, value: string): boolean {
  const words = wordsOf(value.replace(/\s*[(（[][^)）\]]*[)）\]]/gu, ' '));
  if (words.length === 0 || (words.length === 1 && (words[0] as string).length < 2)) return false;
  return questionWords.includes(joined(words));
}

function fitsType(value: string, type: AnswerType): boolean {
  // A year is a date, not how long something took ("how long between the two releases" is no cell's 1988).
  if (type === 'duration') return /\d/u.test(value) && !/^\s*(?:1[5-9]|20)\d\d\s*$/u.test(value);
  if (NUMERIC.has(type) || type === 'date') return /\d/u.test(value);
  if (type === 'person' || type === 'organization' || type === 'place') return /\p{L}/u.test(value);
  return true;
}

/** The cell a row gives for the question: the asked column's, when the row names what the question names. */
function askedCell(
  cells: readonly RowCell[],
  questionWords: string,
  questionTerms: ReadonlySet<string>,
  type: AnswerType,
): { cell: RowCell; share: number } | undefined {
  const anchored = cells.filter((cell) => namedIn(questionWords, cell.value));
  if (anchored.length === 0) return undefined;
  const anchorTerms = new Set(anchored.flatMap((cell) => analyzeQuery(cell.value)));
  let best: { cell: RowCell; share: number } | undefined;
  for (const cell of cells) {
    if (anchored.includes(cell) || !cell.value || !fitsType(cell.value, type)) continue;
    const terms = analyzeQuery(cell.column);
    if (terms.length === 0) continue;
    const share = terms.filter((term) => questionTerms.has(term) && !anchorTerms.has(term)).length / terms.length;
    if (share >= ASKED_SHARE && (!best || share > best.share)) best = { cell, share };
  }
  return best;
}

const same = (a: string, b: string): boolean => joined(wordsOf(a)) === joined(wordsOf(b));

/**
 * The one value cited rows give for the question, checked against the answer's head: the head's value when it is one
 * of the asked cells, else the only asked cell, else why the rows answer nothing.
 */
export function readRows(question: string, type: AnswerType, rows: readonly CitedSentence[], head: string): RowReading {
  const q = questionText(question);
  const intent = detectIntent(q);
  const computes =
    intent.extreme ??
    intent.order ??
    intent.position ??
    ((intent.difference && 'difference') ||
      (intent.average && 'average') ||
      (intent.sum && !/\bhow much\b/iu.test(question) && 'sum'));
  if (COMPUTED.has(type) || computes)
    return {
      found: false,
      why: 'no row states it: it would be computed over the rows',
      reason: `row: computed (${computes || type})`,
    };
  const questionWords = joined(q.words);
  const questionTerms = new Set(analyzeQuery(question));
  const asked: { cell: RowCell; sentence: CitedSentence }[] = [];
  for (const sentence of rows) {
    const found = askedCell(rowCells(sentence.text), questionWords, questionTerms, type);
    if (found) asked.push({ cell: found.cell, sentence });
  }
  // "How many points did …" reads a cell of points; "the number of schools with …" counts rows, which no cell states.
  const counted = intent.countAt === undefined ? undefined : q.words[intent.countAt + 1];
  if (
    counted &&
    asked.some(({ cell }) => !analyzeQuery(cell.column).some((term) => analyzeQuery(counted).includes(term)))
  )
    return {
      found: false,
      why: `no row states how many ${counted}: they would be counted`,
      reason: 'row: a count of rows',
    };
  if (asked.length === 0)
    return {
      found: false,
      why: 'no cited row names what it asks about beside a column it asks for',
      reason: 'row: no asked cell',
    };
  const value = head.replace(/[.。]+$/u, '').trim();
  const chosen = asked.find(({ cell }) => value && same(cell.value, value));
  if (chosen) return { found: true, value: chosen.cell.value, sentence: chosen.sentence, column: chosen.cell.column };
  const values = [...new Map(asked.map((item) => [joined(wordsOf(item.cell.value)), item])).values()];
  if (values.length > 1)
    return {
      found: false,
      why: `the rows give several values (${values.map(({ cell }) => cell.value).join('; ')})`,
      reason: 'row: several cells',
    };
  const only = values[0] as (typeof values)[number];
  return { found: true, value: only.cell.value, sentence: only.sentence, column: only.cell.column };
}

/**
 * The cell a model's answer gives from a cited row that names what the question names: the head is that row's value,
 * of the asked kind, in a column the question does not itself name.
 */
export function cellGiven(
  question: string,
  type: AnswerType,
  rows: readonly CitedSentence[],
  head: string,
): RowCell | undefined {
  const value = head.replace(/[.。]+$/u, '').trim();
  if (!value) return undefined;
  const questionWords = joined(wordsOf(question));
  for (const sentence of rows) {
    const cells = rowCells(sentence.text);
    if (!cells.some((cell) => namedIn(questionWords, cell.value))) continue;
    const given = cells.find(
      (cell) => same(cell.value, value) && fitsType(cell.value, type) && !namedIn(questionWords, cell.value),
    );
    if (given) return given;
  }
  return undefined;
}
