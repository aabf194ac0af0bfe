import { analyzeQuery } from '../../../text/analyzer.ts';
import type { Answer } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { ToolCallRecord } from '../../../domain/step.ts';
import { gateAnswer, type GateThresholds } from './evidence-gate.ts';
import type { TableSqlPlan } from '../../table-sql/table-question-to-sql.ts';
import { VALUES_PER_COLUMN, type TableSchema } from '../../table-sql/table-schemas.ts';
import { leadingNumber, STOPWORDS, wordsOf, yearsIn } from '../../table-sql/table-question-to-sql-text.ts';
import { isTableRow } from './cited-reading.ts';
import { OFFLINE_LABEL } from '../../offline-qa/extractive-answer.ts';
import { questionView } from './question-view.ts';

/** Nouns that name a table's rows themselves. */
const ROW_NOUNS = new Set(analyzeQuery('rows records entries items lines times'));

/**
 * Whether a table plan's computation answers the question. A count of rows answers only a question that counts rows:
 * "How many orders …" over a table of orders, "how many times …", "how many rows …"; "How many layers does BERT-BASE
 * have?" over a table of scores counts rows that are not layers. Other shapes are checked at the end of the run,
 * where the gate reads the cells the answer cites.
 */
export function planFits(
  question: string,
  plan: TableSqlPlan,
  table: TableSchema | undefined,
): { fits: boolean; why: string } {
  const vacuous = plan.filters.find((filter) => vacuousComparison(filter, table));
  if (vacuous)
    return {
      fits: false,
      why: `${vacuous.columns.join('/')} ${vacuous.op} ${vacuous.values[0]} holds for every row or none: the question compares something else`,
    };
  if (plan.aggregate === 'mode' || plan.aggregate === 'antimode') return modeFits(question, plan, table);
  if (plan.aggregate !== 'count') return { fits: true, why: '' };
  const counted = questionView(question).counted;
  if (counted.length === 0) return { fits: true, why: '' };
  const rowTerms = new Set(
    analyzeQuery(
      [table?.title ?? '', table?.sqlName.replace(/_/g, ' ') ?? '', ...(table?.columns.map((c) => c.name) ?? [])].join(
        ' ',
      ),
    ),
  );
  const fits = counted.some((term) => ROW_NOUNS.has(term) || rowTerms.has(term));
  return fits ? { fits, why: '' } : { fits, why: `counting rows of ${plan.table} does not count ${counted.join(' ')}` };
}

const SUPERLATIVES = new Set(['most', 'least', 'fewest', 'highest', 'lowest', 'largest', 'smallest', 'greatest']);
/** Words between a superlative and what it measures ("the least amount of time"). */
const MEASURE_FILLER = new Set(['amount', 'number', 'of', 'the', 'total']);
/** "Used the most according to this chart": what follows names no measure. */
const NO_MEASURE = new Set([...STOPWORDS, 'according', 'among', 'out']);
/** Words that ask how often a value occurs, which is what the most frequent value answers. */
const FREQUENCY = new Set(['often', 'frequent', 'frequently', 'common', 'times', 'occurrences', 'appearances']);

/**
 * The most (least) frequent value answers "which team won the most?", "which label appears most often" and "which
 * country held the most accolades?" over a table of accolades, not "which season had the most ties?" (a measure a
 * count of rows is not) or "the least amount of time": a superlative followed by a measure that names neither the
 * rows (the table's title, a column of names) nor how often asks for an extreme of that measure.
 */
function modeFits(
  question: string,
  plan: TableSqlPlan,
  table: TableSchema | undefined,
): { fits: boolean; why: string } {
  const words = wordsOf(question);
  const at = words.findIndex((word) => SUPERLATIVES.has(word));
  if (at === -1) return { fits: true, why: '' };
  const measured = words.slice(at + 1).find((word) => !MEASURE_FILLER.has(word));
  if (measured === undefined || NO_MEASURE.has(measured) || FREQUENCY.has(measured)) return { fits: true, why: '' };
  const counted = analyzeQuery(
    [
      plan.target ?? '',
      table?.title ?? '',
      ...(table?.columns.filter((column) => column.type === 'text').map((column) => column.name) ?? []),
    ].join(' '),
  );
  if (analyzeQuery(measured).some((term) => counted.includes(term))) return { fits: true, why: '' };
  return {
    fits: false,
    why: `the ${words[at]} ${measured} is no count of ${plan.target ?? 'rows'}: the table has no column for it`,
  };
}

/** The numbers a column's read values hold, by year when the filter compares years. */
function columnNumbers(values: readonly string[], byYear: boolean): number[] {
  const numbers = values.map((value) => (byYear ? yearsIn(value)[0] : leadingNumber(value)));
  return numbers.filter((value): value is number => value !== undefined);
}

/**
 * "At least two films" read as `Year >= 2`: a comparison every row passes filters nothing the question meant.
 * Judged on the column's read values when they are all read and mostly numbers.
 */
function vacuousComparison(filter: TableSqlPlan['filters'][number], table: TableSchema | undefined): boolean {
  if (filter.op === '=' || filter.op === '<>' || typeof filter.values[0] !== 'number') return false;
  const limit = filter.values[0];
  return filter.columns.every((column) => {
    const values = table?.values?.[column] ?? [];
    const numbers = columnNumbers(values, filter.byYear ?? false);
    if (values.length >= VALUES_PER_COLUMN || numbers.length < 3 || numbers.length < values.length / 2) return false;
    return numbers.every((value) => compare(value, filter.op, limit));
  });
}

function compare(value: number, op: TableSqlPlan['filters'][number]['op'], limit: number): boolean {
  if (op === '>') return value > limit;
  if (op === '>=') return value >= limit;
  if (op === '<') return value < limit;
  return value <= limit;
}

const AGGREGATE = /\b(?:count|sum|avg|total)\s*\(|\)\s*-\s*\(/iu;

/**
 * Whether the answer's value was computed by SQL rather than read: a successful `table_query` of the run aggregated
 * (COUNT, SUM, AVG, a difference). A computed value is stated by no sentence; the gate checks it otherwise.
 */
export function computedByTable(calls: readonly ToolCallRecord[], cited: readonly { text: string }[] = []): boolean {
  const last = [...calls].reverse().find((call) => call.name === 'table_query' && call.ok);
  if (last === undefined || !AGGREGATE.test(String(last.arguments.sql ?? ''))) return false;
  // The answer must rest on table rows ("order_id: A-1007 | customer: Hooli"), not on text retrieved after the table.
  return cited.every((chunk) => chunk.text.split('\n').some(isTableRow));
}

/**
 * Whether the answer is the table route's: the run's table query succeeded and the answer is no sentence quoted from
 * the text (the route the run fell back to when the table's answer was refused).
 */
export function answeredByTable(calls: readonly ToolCallRecord[], answer: Answer): boolean {
  return calls.some((call) => call.name === 'table_query' && call.ok) && !answer.answer.includes(OFFLINE_LABEL);
}

/** The SQL of the run's last successful `table_query`. */
export function lastTableSql(calls: readonly ToolCallRecord[]): string | undefined {
  const last = [...calls].reverse().find((call) => call.name === 'table_query' && call.ok);
  return last ? String(last.arguments.sql ?? '') : undefined;
}

/**
 * The columns the select list of the run's last successful `table_query` reads (`SELECT "MNLI-(m/mm)" AS result …`
 * reads MNLI-(m/mm); `COUNT(*)` reads none): what a computed value is a value of.
 */
export function selectedColumns(calls: readonly ToolCallRecord[]): string[] {
  const select = /^\s*SELECT\s+(?:DISTINCT\s+)?([\s\S]*?)\s+FROM\s/i.exec(lastTableSql(calls) ?? '')?.[1];
  if (!select) return [];
  const columns: string[] = [];
  for (const match of select.matchAll(/(\bAS\s+)?"((?:[^"]|"")+)"/gi))
    if (!match[1]) columns.push(match[2]!.replaceAll('""', '"'));
  return columns;
}

/**
 * Why the evidence gate refuses a table's answer where the table route made it (rag, controllable and react alike), or
 * `undefined` when it passes: a refused table answer sends the run to the documents' text instead of ending it.
 */
export function tableAnswerRefused(
  question: string,
  answer: Answer,
  evidence: readonly Evidence[],
  calls: readonly ToolCallRecord[],
  thresholds?: GateThresholds,
): string | undefined {
  const gated = gateAnswer({
    question,
    answer,
    evidence,
    computed: computedByTable(calls),
    computedFrom: selectedColumns(calls),
    computedSql: lastTableSql(calls),
    fromTable: true,
    ...(thresholds ? { thresholds } : {}),
  });
  return gated.verdict === 'refuse' ? gated.reason : undefined;
}
