import type { SqlDialect } from '../../store/sql-guard.ts';
import { identifiersIn } from '../../text/text-heuristics.ts';
import {
  cellMentions,
  columnMentions,
  profileColumn,
  questionText,
  type CellMention,
  type ColumnMention,
  type ColumnProfile,
  type QuestionText,
} from './table-question-to-sql-columns.ts';
import {
  comparisonColumn,
  comparisonFilter,
  filterSql,
  findComparisons,
  negated,
  numberOf,
  numericExpr,
  quoteLiteral,
  yearCells,
  type PlanFilter,
} from './table-question-to-sql-filters.ts';
import { detectIntent, type Intent } from './table-question-to-sql-intent.ts';
import { wordsOf } from './table-question-to-sql-text.ts';
import { readZhTableQuestion } from './table-question-zh.ts';
import { writeSql, type TableQuestionShape } from './table-question-to-sql-write.ts';
import { VALUES_PER_COLUMN, type TableSchema } from './table-schemas.ts';
import { analyzeQuery } from '../../text/analyzer.ts';

export interface TableSqlPlan {
  sql: string;
  table: string;
  /** The shape (named `aggregate` since the strategy first wrote aggregations only). */
  aggregate: TableQuestionShape;
  /** The measured column (aggregated, ordered by, subtracted); absent for COUNT(*). */
  column?: string;
  /** The column whose cells answer (lookups, argmax, first/next …). */
  target?: string;
  filters: PlanFilter[];
  groupBy?: string;
  /** How strongly the question is tied to this table (names of its columns, cells it names). */
  score: number;
}

export interface TableQuestionOptions {
  /** The store's SQL dialect (`store.sqlDialect`); row order and number parsing differ. Default sqlite. */
  dialect?: SqlDialect;
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The offline strategy for table questions. It reads the question against each visible table — the columns it names
 * (analyzer terms and a few related words), the cells it names (whole or by a distinctive part), numbers it compares
 * ("more than 10", "before 1998"), years and numbers next to a column's name ("week 3") — and writes one SELECT:
 * an aggregate (count, sum, average, min, max; grouped "per" a column), a lookup of the named rows' cells, the row
 * with the most or least of a value, the most frequent value, the first/last row, the row after or before a named
 * one, or the difference of two rows' values. `undefined` when the question is not tied to any table well enough.
 */
export function tableQuestionToSql(
  question: string,
  tables: readonly TableSchema[],
  options: TableQuestionOptions = {},
): TableSqlPlan | undefined {
  const dialect = options.dialect ?? 'sqlite';
  const chinese = HAS_CJK.test(question);
  const english = chinese ? undefined : { q: questionText(question), intent: undefined as Intent | undefined };
  let best: TableSqlPlan | undefined;
  for (const table of tables) {
    // A Chinese question is read against each table's own words (see readZhTableQuestion).
    const known = chinese ? tableText(table) : '';
    const text = chinese ? readZhTableQuestion(question, known, new Set(analyzeQuery(known))) : question;
    const q = english?.q ?? questionText(text);
    if (q.words.length === 0) continue;
    const intent = english ? (english.intent ??= detectIntent(q)) : detectIntent(q);
    const plan = planFor(text, q, intent, table, dialect);
    if (plan && (!best || plan.score > best.score)) best = plan;
  }
  return best;
}

/** A table's title, column names and read cells, as one text. */
const tableText = (table: TableSchema): string =>
  [table.title, ...table.columns.map((column) => column.name), ...Object.values(table.values ?? {}).flat()].join('\n');

/** How the question reads against one table: what it names, compares and asks for. */
interface Reading {
  profiles: ColumnProfile[];
  byName: Map<string, ColumnProfile>;
  mentions: ColumnMention[];
  cells: CellMention[];
  filters: PlanFilter[];
  /** Words consumed by cells, comparisons and numbers. */
  taken: Set<number>;
  tableTie: number;
  /** Words of the table's title ("orders" of orders-q1.csv), singular. */
  titleWords: Set<string>;
}

function read(question: string, q: QuestionText, table: TableSchema): Reading | undefined {
  const profiles = table.columns.map((column, index) => {
    const values = table.values?.[column.name] ?? [];
    return profileColumn(column, index, values, values.length < VALUES_PER_COLUMN);
  });
  const byName = new Map(profiles.map((profile) => [profile.name, profile]));
  // An identifier the table does not hold (CT-2024-0193) means the question is about a document, not this table.
  const cellText = new Set(profiles.flatMap((profile) => profile.values.map((value) => value.toUpperCase())));
  if (identifiersIn(question).some((id) => !cellText.has(id))) return undefined;
  // Chinese (or Japanese, Korean) words the table's names and cells do not hold are conditions this strategy cannot
  // read (it has no lexicon from them to the table's language): planning without them would drop a filter.
  const known = [table.title, ...profiles.flatMap((profile) => [profile.name, ...profile.values])].join('\n');
  if ((question.match(CJK_RUN) ?? []).some((run) => !known.includes(run))) return undefined;

  const taken = new Set<number>();
  const filters: PlanFilter[] = [];
  const comparisons = findComparisons(q);
  const firstMentions = columnMentions(q, profiles, new Set());
  for (const comparison of comparisons) {
    const column = comparisonColumn(comparison, profiles, firstMentions, new Set());
    if (!column) continue;
    filters.push(comparisonFilter(comparison, column));
    for (let i = comparison.start; i < comparison.end; i++) taken.add(i);
  }
  const nameWords = new Set(firstMentions.filter((m) => m.score >= 0.5).flatMap((m) => m.positions));
  const cells = cellMentions(q, profiles, nameWords, taken);
  for (const cell of cells) for (let i = cell.start; i < cell.end; i++) taken.add(i);
  // Cell mentions on the same words (a team both home and away) become one filter over either column.
  const spans = new Map<string, CellMention[]>();
  for (const cell of cells)
    spans.set(`${cell.start}:${cell.end}`, [...(spans.get(`${cell.start}:${cell.end}`) ?? []), cell]);
  const grouped = new Map<string, PlanFilter>();
  for (const same of spans.values()) {
    const first = same[0] as CellMention;
    const op = negated(q, first) ? '<>' : '=';
    const columns = [...new Set(same.map((cell) => cell.column.name))];
    const key = `${op}|${columns.join('|')}`;
    const existing = grouped.get(key);
    const values = same.flatMap((cell) => cell.cells);
    if (existing) existing.values.push(...values.filter((value) => !existing.values.includes(value)));
    else grouped.set(key, { columns, op, values: [...new Set(values)] });
  }
  filters.push(...grouped.values());

  // Numbers left: next to a column's name ("week 3", "pick 1"), or a year of the one year-like column.
  q.words.forEach((word, i) => {
    if (taken.has(i)) return;
    const value = numberOf(word);
    if (value === undefined) return;
    const digits = String(value);
    // "week 3", "pick 1", "one bronze medal", "1.69 in height": the number is a cell of the column named beside it.
    const beside = (p: number) =>
      p === i - 1 || p === i - 2 || p === i + 1 || (p === i + 2 && ['in', 'of', 'for'].includes(q.words[i + 1] ?? ''));
    const named = firstMentions.find(
      (mention) => mention.positions.some(beside) && mention.column.values.some((cell) => wordsOf(cell)[0] === digits),
    );
    if (!/^\d/.test(word) && !named) return;
    if (named) {
      const cellsNamed = named.column.values.filter((cell) => wordsOf(cell)[0] === digits && wordsOf(cell).length <= 2);
      if (cellsNamed.length) {
        filters.push({
          columns: [named.column.name],
          op: '=',
          values: named.column.type === 'text' ? cellsNamed : [value],
        });
        taken.add(i);
        return;
      }
    }
    if (Number.isInteger(value) && value >= 1500 && value <= 2100) {
      const years = profiles.filter((column) => column.yearLike && yearCells(column, value).length > 0);
      const column = years.find((candidate) => firstMentions.some((m) => m.column === candidate)) ?? years[0];
      if (column) {
        filters.push({
          columns: [column.name],
          op: '=',
          values: column.type === 'text' ? yearCells(column, value) : [value],
        });
        taken.add(i);
      }
    }
  });
  const mentions = columnMentions(q, profiles, taken);
  const titleWords = new Set(
    wordsOf(table.title)
      .filter((word) => word.length > 2)
      .map(singular),
  );
  const tableTie = q.words.some((word) => titleWords.has(singular(word))) ? 0.5 : 0;
  return { profiles, byName, mentions, cells, filters, taken, tableTie, titleWords };
}

const singular = (word: string): string =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

const filterColumns = (filters: readonly PlanFilter[]): Set<string> =>
  new Set(filters.flatMap((filter) => filter.columns));

/** The column a wh-phrase or "how many …" asks for: named within a few words after the cue. */
function columnAfter(
  position: number | undefined,
  reading: Reading,
  accept: (column: ColumnProfile) => boolean,
  span = 4,
): ColumnProfile | undefined {
  if (position === undefined) return undefined;
  const inWindow = reading.mentions.filter(
    (mention) =>
      mention.score >= 0.5 &&
      accept(mention.column) &&
      mention.positions.some((p) => p > position && p <= position + span && !reading.taken.has(p)),
  );
  inWindow.sort(
    (a, b) =>
      Math.min(...a.positions.filter((p) => p > position)) - Math.min(...b.positions.filter((p) => p > position)) ||
      b.score - a.score,
  );
  return inWindow[0]?.column;
}

/** The first text column not used by a filter: tables put the name of what a row is about first. */
const labelColumn = (reading: Reading, avoid: ReadonlySet<string>): ColumnProfile | undefined =>
  reading.profiles.find(
    (column) =>
      !avoid.has(column.name) &&
      column.type === 'text' &&
      !column.textNumeric &&
      !column.yearLike &&
      column.values.length > 1,
  ) ?? reading.profiles.find((column) => !avoid.has(column.name) && column.type === 'text');

/** A column named anywhere, strongest first, that `accept` lets through. */
const namedColumn = (reading: Reading, accept: (column: ColumnProfile) => boolean): ColumnProfile | undefined =>
  reading.mentions.find((mention) => mention.score >= 0.5 && accept(mention.column))?.column;

function planFor(
  question: string,
  q: QuestionText,
  intent: Intent,
  table: TableSchema,
  dialect: SqlDialect,
): TableSqlPlan | undefined {
  const reading = read(question, q, table);
  if (!reading) return undefined;
  const used = filterColumns(reading.filters);
  const strongMentions = reading.mentions.filter((mention) => mention.score >= 0.5);
  const score =
    reading.tableTie +
    reading.cells.reduce((sum, cell) => sum + (cell.exact ? 1 : 0.5) * (cell.end - cell.start), 0) +
    reading.filters.length * 0.5 +
    strongMentions.reduce((sum, mention) => sum + Math.min(1, mention.score), 0);
  const build = (
    shape: TableQuestionShape,
    parts: { column?: ColumnProfile; target?: ColumnProfile; groupBy?: ColumnProfile; filters?: PlanFilter[] },
  ): TableSqlPlan | undefined => {
    const sql = writeSql(
      shape,
      table.sqlName,
      parts.filters ?? reading.filters,
      reading.byName,
      dialect,
      parts,
      reading.profiles,
    );
    if (!sql) return undefined;
    return {
      sql,
      table: table.sqlName,
      aggregate: shape,
      ...(parts.column ? { column: parts.column.name } : {}),
      ...(parts.target ? { target: parts.target.name } : {}),
      filters: parts.filters ?? reading.filters,
      ...(parts.groupBy ? { groupBy: parts.groupBy.name } : {}),
      score,
    };
  };
  const numeric = (column: ColumnProfile) => column.numeric && !used.has(column.name);
  const anchored = reading.cells.length > 0;
  const tied = anchored || reading.filters.length > 0 || strongMentions.length > 0 || reading.tableTie > 0;
  if (!tied) return undefined;
  const groupBy =
    intent.groupAt === undefined
      ? undefined
      : columnAfter(intent.groupAt, reading, (column) => !used.has(column.name), 3);
  // "who …" asks for a name, never a number; a column named by the options of a choice ("levi or elkabetz") is the answer.
  const choice = reading.filters.find(
    (filter) => filter.op === '=' && filter.columns.length === 1 && filter.values.length >= 2 && q.words.includes('or'),
  );
  const choiceColumn = choice ? reading.byName.get(choice.columns[0] as string) : undefined;
  const whTarget =
    columnAfter(intent.whAt, reading, (column) => !used.has(column.name) && !(intent.asksPerson && column.numeric)) ??
    choiceColumn;
  const fallbackTarget = (avoid: ReadonlySet<string>) =>
    whTarget ?? (intent.asksPerson || intent.asksThing ? labelColumn(reading, avoid) : undefined);

  // The difference of two named rows' values ("how many more points did fram have than leiftur").
  if (intent.difference) {
    const spans = [...new Map(reading.cells.map((cell) => [`${cell.start}`, cell])).values()].sort(
      (a, b) => a.start - b.start,
    );
    const measure = namedColumn(reading, numeric);
    if (spans.length >= 2) {
      const [a, b] = spans as [CellMention, CellMention];
      const others = reading.filters.filter(
        (filter) =>
          !(
            filter.op === '=' &&
            filter.values.some((value) => a.cells.includes(String(value)) || b.cells.includes(String(value)))
          ),
      );
      return build('difference', {
        ...(measure ? { column: measure } : {}),
        filters: [...others, cellFilter(a), cellFilter(b)],
      });
    }
  }

  // "How many …": a count of rows, unless the words after it name a numeric column ("how many points did X have").
  if (intent.countAt !== undefined) {
    // "How many orders …" counts the rows of the orders table, whatever numeric column mentions orders.
    const countsRows = reading.titleWords.has(singular(q.words[intent.countAt + 1] ?? ''));
    const measure = countsRows ? undefined : columnAfter(intent.countAt, reading, numeric, 3);
    if (measure && intent.position && !anchored) return build(intent.position, { target: measure });
    if (measure && (anchored || intent.sum))
      return build(anchored && !intent.sum && reading.cells.length === 1 ? 'lookup' : 'sum', {
        column: measure,
        target: measure,
      });
    if (groupBy) return build('count', { groupBy });
    if (!anchored && reading.filters.length === 0 && strongMentions.length === 0 && reading.tableTie === 0)
      return undefined;
    return build('count', {});
  }

  if (intent.average || (intent.sum && !intent.extreme)) {
    const measure = namedColumn(reading, numeric) ?? soleMeasure(reading, used);
    if (measure) return build(intent.average ? 'avg' : 'sum', { column: measure, ...(groupBy ? { groupBy } : {}) });
  }

  if (intent.extreme) {
    // "the largest order_total_usd" asks for the value itself; "which period had the largest number of deaths" for a row.
    const other = namedColumn(reading, (column) => numeric(column) && column !== whTarget);
    if (!other && whTarget && numeric(whTarget))
      return build(intent.extreme, { column: whTarget, ...(groupBy ? { groupBy } : {}) });
    const measure = other;
    const target =
      whTarget && whTarget !== measure
        ? whTarget
        : intent.asksPerson ||
            (intent.asksThing &&
              !measure?.own.some((term) => q.terms.slice(intent.whAt ?? 0, (intent.whAt ?? 0) + 3).includes(term)))
          ? labelColumn(reading, new Set([...used, ...(measure ? [measure.name] : [])]))
          : undefined;
    if (measure && target) return build(intent.extreme === 'max' ? 'argmax' : 'argmin', { column: measure, target });
    if (measure) return build(intent.extreme, { column: measure, ...(groupBy ? { groupBy } : {}) });
    const modeTarget = whTarget ?? fallbackTarget(used);
    if (modeTarget) return build(intent.extreme === 'max' ? 'mode' : 'antimode', { target: modeTarget });
  }

  // The row after or before a named one ("which player is listed previous to john holt").
  if (intent.order && anchored) {
    const anchor = reading.cells.find((cell) => cell.start > (intent.orderAt ?? -1));
    if (anchor) {
      const target = whTarget ?? anchor.column;
      const others = reading.filters.filter(
        (filter) => !filter.columns.includes(anchor.column.name) || filter.op !== '=',
      );
      return build(intent.order, { target, filters: [...others, cellFilter(anchor)] });
    }
  }

  if (intent.position) {
    const target = whTarget ?? fallbackTarget(used) ?? labelColumn(reading, used);
    if (target) return build(intent.position, { target });
  }

  if (anchored || reading.filters.length > 0) {
    const target =
      whTarget ??
      namedColumn(reading, (column) => !used.has(column.name)) ??
      (anchored ? fallbackTarget(used) : undefined);
    if (target) return build('lookup', { target });
  }
  return undefined;
}

const cellFilter = (cell: CellMention): PlanFilter => ({ columns: [cell.column.name], op: '=', values: cell.cells });

/** The one real-valued column a "how much … in total" question can be about, when the question names none. */
function soleMeasure(reading: Reading, used: ReadonlySet<string>): ColumnProfile | undefined {
  const measures = reading.profiles.filter((column) => column.type === 'real' && !used.has(column.name));
  return measures.length === 1 ? measures[0] : undefined;
}
