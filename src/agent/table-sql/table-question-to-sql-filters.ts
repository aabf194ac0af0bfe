import type { SqlDialect } from '../../store/sql-guard.ts';
import type { CellMention, ColumnMention, ColumnProfile, QuestionText } from './table-question-to-sql-columns.ts';
import { yearsIn } from './table-question-to-sql-text.ts';

export type FilterOp = '=' | '<>' | '>' | '>=' | '<' | '<=';

/** One condition of a plan: cells of a column (any of `columns` when the words name cells of several), or a comparison. */
export interface PlanFilter {
  columns: string[];
  op: FilterOp;
  /** Cells for `=`/`<>` (any of them); one number for a comparison. */
  values: (string | number)[];
  /** Compared by the year the cells name, not their leading number. */
  byYear?: boolean;
}

const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
  thousand: 1000,
};

export const numberOf = (word: string): number | undefined =>
  /^\d+(\.\d+)?$/.test(word) ? Number(word) : NUMBER_WORDS[word];

const isYear = (n: number): boolean => Number.isInteger(n) && n >= 1500 && n <= 2100;

interface Cue {
  words: string[];
  op: FilterOp;
  /** The cue follows the number ("10 or more"). */
  after?: boolean;
  /** Only years: "before 1998", "since 2005". */
  years?: boolean;
}

// Longest cues first, so "no more than" is not read as "more than".
const CUES: Cue[] = [
  { words: ['no', 'more', 'than'], op: '<=' },
  { words: ['not', 'more', 'than'], op: '<=' },
  { words: ['no', 'less', 'than'], op: '>=' },
  { words: ['at', 'least'], op: '>=' },
  { words: ['at', 'most'], op: '<=' },
  { words: ['or', 'more'], op: '>=', after: true },
  { words: ['or', 'higher'], op: '>=', after: true },
  { words: ['or', 'greater'], op: '>=', after: true },
  { words: ['or', 'above'], op: '>=', after: true },
  { words: ['or', 'over'], op: '>=', after: true },
  { words: ['or', 'later'], op: '>=', after: true },
  { words: ['or', 'less'], op: '<=', after: true },
  { words: ['or', 'fewer'], op: '<=', after: true },
  { words: ['or', 'lower'], op: '<=', after: true },
  { words: ['or', 'below'], op: '<=', after: true },
  { words: ['or', 'under'], op: '<=', after: true },
  { words: ['or', 'earlier'], op: '<=', after: true },
  { words: ['and', 'above'], op: '>=', after: true },
  { words: ['and', 'over'], op: '>=', after: true },
  { words: ['prior', 'to'], op: '<', years: true },
  { words: ['earlier', 'than'], op: '<', years: true },
  { words: ['later', 'than'], op: '>', years: true },
  ...[
    'more',
    'greater',
    'higher',
    'larger',
    'bigger',
    'longer',
    'taller',
    'older',
    'over',
    'above',
    'exceeding',
    'exceeds',
    'beyond',
    'past',
  ].map((word): Cue => ({ words: [word], op: '>' })),
  ...['less', 'fewer', 'lower', 'smaller', 'shorter', 'younger', 'under', 'below', 'beneath'].map(
    (word): Cue => ({ words: [word], op: '<' }),
  ),
  { words: ['before'], op: '<', years: true },
  { words: ['after'], op: '>', years: true },
  { words: ['since'], op: '>=', years: true },
  { words: ['until'], op: '<=', years: true },
];

export interface Comparison {
  op: FilterOp;
  value: number;
  /** Word positions of the cue and the number. */
  start: number;
  end: number;
  numberAt: number;
}

/** "more than 10", "10 or more", "below 15,000", "before 1998", "between 2005 and 2010" (as two comparisons). */
export function findComparisons(question: QuestionText): Comparison[] {
  const words = question.words;
  const found: Comparison[] = [];
  const used = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    if (words[i] === 'between' && i + 3 < words.length && words[i + 2] === 'and') {
      const low = numberOf(words[i + 1] as string);
      const high = numberOf(words[i + 3] as string);
      if (low !== undefined && high !== undefined) {
        found.push({ op: '>=', value: Math.min(low, high), start: i, end: i + 4, numberAt: i + 1 });
        found.push({ op: '<=', value: Math.max(low, high), start: i, end: i + 4, numberAt: i + 3 });
        for (let k = i; k < i + 4; k++) used.add(k);
      }
    }
  }
  for (const cue of CUES) {
    for (let i = 0; i + cue.words.length <= words.length; i++) {
      if (cue.words.some((word, k) => words[i + k] !== word || used.has(i + k))) continue;
      let at = cue.after ? i - 1 : i + cue.words.length;
      if (!cue.after && words[at] === 'than') at++;
      // A unit or a measure word may sit between the number and its cue ("1.80 meters tall or more").
      for (let back = 0; cue.after && back < 2 && at > 0 && numberOf(words[at] as string) === undefined; back++) at--;
      const value = at >= 0 && at < words.length && !used.has(at) ? numberOf(words[at] as string) : undefined;
      if (value === undefined) continue;
      if (cue.years && !isYear(value)) continue;
      const start = Math.min(i, at);
      const end = Math.max(i + cue.words.length, at + 1);
      for (let k = start; k < end; k++) used.add(k);
      found.push({ op: cue.op, value, start, end, numberAt: at });
    }
  }
  return found;
}

/** The numeric column a comparison is about: named next to it, else the one named anywhere, else the only one its number fits. */
export function comparisonColumn(
  comparison: Comparison,
  columns: readonly ColumnProfile[],
  mentions: readonly ColumnMention[],
  avoid: ReadonlySet<string>,
): ColumnProfile | undefined {
  const year = isYear(comparison.value);
  const candidates = columns.filter(
    (column) => !avoid.has(column.name) && (column.numeric || (year && column.yearLike)),
  );
  const near = (mention: ColumnMention): number =>
    Math.min(
      ...mention.positions.map((p) =>
        p >= comparison.end ? p - comparison.end : p < comparison.start ? comparison.start - p - 1 : 99,
      ),
    );
  const named = mentions
    .filter((mention) => candidates.includes(mention.column) && mention.score >= 0.5)
    .sort((a, b) => near(a) - near(b) || b.score - a.score);
  const close = named.find((mention) => near(mention) <= 3);
  if (close) return close.column;
  if (year) {
    const years = candidates.filter((column) => column.yearLike);
    if (years.length >= 1) return years[0];
  }
  if (named[0]) return named[0].column;
  const fits = candidates.filter(
    (column) =>
      column.numeric &&
      !column.yearLike &&
      column.min !== undefined &&
      column.max !== undefined &&
      comparison.value >= column.min * 0.5 &&
      comparison.value <= column.max * 2,
  );
  return fits.length === 1 ? fits[0] : undefined;
}

/** A comparison as a filter: numbers compare as numbers; a year against a text column of dates by the year it names. */
export function comparisonFilter(comparison: Comparison, column: ColumnProfile): PlanFilter {
  const byYear = isYear(comparison.value) && column.yearLike && column.type === 'text';
  return { columns: [column.name], op: comparison.op, values: [comparison.value], ...(byYear ? { byYear: true } : {}) };
}

/** Negations just before a cell mention ("not in the united kingdom", "other than cumberland county"). */
export function negated(question: QuestionText, mention: CellMention): boolean {
  const before = question.words.slice(Math.max(0, mention.start - 3), mention.start);
  return (
    before.some(
      (word) => word === 'not' || word === 'except' || word === 'excluding' || word === 'without' || word === 'besides',
    ) ||
    (before.at(-2) === 'other' && before.at(-1) === 'than') ||
    before.join(' ').includes("n't") ||
    before.at(-1) === 'non'
  );
}

const quoteId = (name: string): string => `"${name.replaceAll('"', '""')}"`;
export const quoteLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/**
 * A column read as a number. Typed columns as they are; text that starts with a number ("20,699", "75 km/h",
 * "#26", "139 000") by its leading number, and NULL when it holds no digit (a dash for "none").
 */
export function numericExpr(column: ColumnProfile, dialect: SqlDialect): string {
  const id = quoteId(column.name);
  if (!column.textNumeric) return id;
  if (dialect === 'postgresql') {
    return `CAST(NULLIF(substring(regexp_replace(${id}, '[,#$£€+ ]', '', 'g') from '^-?[0-9]*[.]?[0-9]+'), '') AS double precision)`;
  }
  const stripped = ['#', '$', '£', '€', '+', ' ', ','].reduce(
    (inner, symbol) => `REPLACE(${inner}, ${quoteLiteral(symbol)}, '')`,
    id,
  );
  return `(CASE WHEN ${id} GLOB '*[0-9]*' THEN CAST(REPLACE(${stripped}, '−', '-') AS REAL) END)`;
}

/** The SQL condition of a filter. */
export function filterSql(
  filter: PlanFilter,
  profiles: ReadonlyMap<string, ColumnProfile>,
  dialect: SqlDialect,
): string {
  const parts = filter.columns.map((name) => {
    const column = profiles.get(name) as ColumnProfile;
    const id = quoteId(name);
    if (filter.op === '=' || filter.op === '<>') {
      const list = filter.values
        .map((value) => (typeof value === 'number' ? String(value) : quoteLiteral(value)))
        .join(', ');
      return filter.op === '=' ? `${id} IN (${list})` : `(${id} IS NULL OR ${id} NOT IN (${list}))`;
    }
    const value = filter.values[0] as number;
    if (filter.byYear && column.complete) {
      // The cells are all known: those whose year compares as asked, written out, so every dialect reads it alike.
      const matching = column.values.filter((cell) => {
        const year = yearsIn(cell)[0];
        return year !== undefined && compare(year, filter.op, value);
      });
      return matching.length ? `${id} IN (${matching.map(quoteLiteral).join(', ')})` : '1 = 0';
    }
    return `${numericExpr(column, dialect)} ${filter.op} ${value}`;
  });
  // Named cells of either column match; "not" one of them excludes it from both.
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(filter.op === '<>' ? ' AND ' : ' OR ')})`;
}

function compare(a: number, op: FilterOp, b: number): boolean {
  switch (op) {
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '=':
      return a === b;
    default:
      return a !== b;
  }
}

/** Cells of year-like columns that name `year` (a year asked about: "in 2013", "1978"). */
export function yearCells(column: ColumnProfile, year: number): string[] {
  return column.values.filter((cell) => yearsIn(cell).includes(year));
}
