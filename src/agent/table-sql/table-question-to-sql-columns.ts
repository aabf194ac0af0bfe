import type { ColumnType } from '../../domain/index.ts';
import {
  CUE_WORDS,
  leadingNumber,
  nameTermsWithSynonyms,
  nearlySame,
  termOf,
  wordsOf,
  yearsIn,
} from './table-question-to-sql-text.ts';

/** What the strategy knows of one column: its type, how it reads as a number, its name's terms, its values. */
export interface ColumnProfile {
  name: string;
  type: ColumnType;
  index: number;
  /** Integer or real, or text whose cells mostly start with a number ("20,699", "75 km/h", "1.69"). */
  numeric: boolean;
  /** Numeric but stored as text: SQL must read the leading number. */
  textNumeric: boolean;
  /** Cells (distinct, as text); `complete` when every distinct value was read. */
  values: readonly string[];
  complete: boolean;
  valueWords: readonly (readonly string[])[];
  /** The cells' words as analyzer terms (stemmed). */
  valueTerms: readonly (readonly string[])[];
  /** Cells that sum up the other rows ("Total"): not rows a first/last/most question is about. */
  summaryCells: readonly string[];
  own: readonly string[];
  related: ReadonlySet<string>;
  /** Names or holds years (Year, Season, Date, "March 5, 1997"). */
  yearLike: boolean;
  /** Holds dates or times of day, which are ordered but not amounts. */
  min?: number;
  max?: number;
}

/** Share of cells that must start with a number for a text column to count as numeric. */
const NUMERIC_SHARE = 0.8;

export function profileColumn(
  column: { name: string; type: ColumnType },
  index: number,
  values: readonly string[],
  complete: boolean,
): ColumnProfile {
  const { own, related } = nameTermsWithSynonyms(column.name);
  const numbers = values.map(leadingNumber);
  const present = numbers.filter((value): value is number => value !== undefined);
  const typed = column.type === 'integer' || column.type === 'real';
  // Dates ("15 August 1992", "2024-01-05") start with a number but are not amounts.
  const dates = values.filter((value) => yearsIn(value).length > 0 && /[a-z]{3}|\d-\d\d-\d/i.test(value)).length;
  const textNumeric =
    !typed && values.length > 0 && present.length >= NUMERIC_SHARE * values.length && dates < 0.5 * values.length;
  const nameWords = wordsOf(column.name);
  const yearLike =
    nameWords.some((word) => /^(year|years|season|date|dates|born|founded|built|released|introduced)$/.test(word)) ||
    (values.length > 0 && values.filter((value) => yearsIn(value).length > 0).length >= 0.8 * values.length);
  let min: number | undefined;
  let max: number | undefined;
  for (const value of present) {
    if (min === undefined || value < min) min = value;
    if (max === undefined || value > max) max = value;
  }
  return {
    name: column.name,
    type: column.type,
    index,
    numeric: typed || textNumeric,
    textNumeric,
    values,
    complete,
    valueWords: values.map(wordsOf),
    valueTerms: values.map((value) => wordsOf(value).map(termOf)),
    summaryCells:
      column.type === 'text'
        ? values.filter(
            (value) => /^(total|totals|grand total|sum|average)\b/i.test(value.trim()) && wordsOf(value).length <= 4,
          )
        : [],
    own,
    related,
    yearLike,
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
  };
}

/** The question as words, with each word's analyzer term (stemmed) for matching names. */
export interface QuestionText {
  words: string[];
  terms: string[];
}

export function questionText(question: string): QuestionText {
  const words = wordsOf(question);
  return { words, terms: words.map(termOf) };
}

/** Where and how strongly the question names a column. */
export interface ColumnMention {
  column: ColumnProfile;
  /** Share of the name's own terms the question uses (synonyms count half). */
  score: number;
  positions: number[];
}

export function columnMentions(
  question: QuestionText,
  columns: readonly ColumnProfile[],
  taken: ReadonlySet<number>,
): ColumnMention[] {
  const mentions: ColumnMention[] = [];
  for (const column of columns) {
    if (column.own.length === 0) continue;
    const positions: number[] = [];
    let ownHits = 0;
    let relatedHit = false;
    for (const term of column.own) {
      const at = question.terms.findIndex((candidate, i) => candidate === term && !taken.has(i));
      if (at !== -1) {
        ownHits++;
        positions.push(at);
      }
    }
    if (ownHits === 0) {
      const at = question.terms.findIndex((candidate, i) => column.related.has(candidate) && !taken.has(i));
      if (at !== -1) {
        relatedHit = true;
        positions.push(at);
      }
    }
    const score = ownHits / column.own.length + (relatedHit ? 0.5 : 0);
    if (score > 0) mentions.push({ column, score, positions });
  }
  return mentions.sort((a, b) => b.score - a.score || a.column.index - b.column.index);
}

/** A run of question words that names cells of one column. */
export interface CellMention {
  column: ColumnProfile;
  cells: string[];
  start: number;
  end: number;
  exact: boolean;
}

const sublistAt = (
  list: readonly string[],
  part: readonly string[],
  same = (a: string, b: string) => a === b,
): number => {
  outer: for (let i = 0; i + part.length <= list.length; i++) {
    for (let j = 0; j < part.length; j++) if (!same(list[i + j] as string, part[j] as string)) continue outer;
    return i;
  }
  return -1;
};

/** Cells a partial phrase may stand for: more would make the phrase a common word of the column, not a name. */
const MAX_PARTIAL_CELLS = 3;

/**
 * Cells the question names: a whole cell written in the question ("john holt", "1913–1914"), or a distinctive part
 * of one ("levi" for "Jacky Levi") that at most three cells of the column contain. Longest and exact runs win;
 * runs do not overlap. Words that name a column are not read as part of a cell unless the whole cell is there.
 */
export function cellMentions(
  question: QuestionText,
  columns: readonly ColumnProfile[],
  nameWords: ReadonlySet<number>,
  taken: ReadonlySet<number>,
): CellMention[] {
  const candidates: CellMention[] = [];
  const words = question.words;
  const terms = question.terms;
  for (const column of columns) {
    column.valueTerms.forEach((cell, v) => {
      if (cell.length === 0) return;
      const text = cell.join(' ');
      // Bare numbers are read by the numeric filters; one stopword or letter is no name.
      if (
        cell.length === 1 &&
        (CUE_WORDS.has((column.valueWords[v] as string[])[0] as string) ||
          text.length < 2 ||
          /^\d+(\.\d+)?$/.test(text))
      )
        return;
      // Whole cells, by stemmed words, one misspelt word of five letters or more forgiven ("tyrell-renault").
      let at = sublistAt(terms, cell);
      if (at === -1 && text.length >= 5) at = sublistAt(words, column.valueWords[v] as string[], nearlySame);
      if (at !== -1)
        candidates.push({ column, cells: [column.values[v] as string], start: at, end: at + cell.length, exact: true });
    });
    // Partial runs: up to three words of the question inside cells.
    for (let start = 0; start < words.length; start++) {
      for (let length = Math.min(3, words.length - start); length >= 1; length--) {
        const run = terms.slice(start, start + length);
        const runWords = words.slice(start, start + length);
        if (run.some((_, k) => nameWords.has(start + k) || taken.has(start + k))) continue;
        if (runWords.some((word) => CUE_WORDS.has(word))) continue;
        if (run.join('').length < 4 || run.every((word) => /^\d/.test(word))) continue;
        const cells = column.values.filter(
          (_, v) =>
            sublistAt(column.valueTerms[v] as string[], run) !== -1 &&
            (column.valueTerms[v] as string[]).length > run.length,
        );
        if (cells.length >= 1 && cells.length <= MAX_PARTIAL_CELLS)
          candidates.push({ column, cells, start, end: start + length, exact: false });
      }
    }
  }
  candidates.sort(
    (a, b) =>
      Number(b.exact) - Number(a.exact) ||
      b.end - b.start - (a.end - a.start) ||
      a.cells.length - b.cells.length ||
      a.column.index - b.column.index,
  );
  const used = new Set<number>(taken);
  const chosen: CellMention[] = [];
  for (const candidate of candidates) {
    let free = true;
    for (let i = candidate.start; i < candidate.end; i++) if (used.has(i)) free = false;
    if (!free) {
      // The same words naming a cell of another column (a team both home and away) are kept beside it.
      const twin = chosen.find(
        (c) =>
          c.start === candidate.start &&
          c.end === candidate.end &&
          c.exact === candidate.exact &&
          c.column !== candidate.column,
      );
      if (twin) chosen.push(candidate);
      continue;
    }
    for (let i = candidate.start; i < candidate.end; i++) used.add(i);
    chosen.push(candidate);
  }
  return chosen;
}
