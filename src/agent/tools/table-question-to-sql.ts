import type { Principal, TableRecord } from '../../domain/index.ts';
import { QueryRejectedError, QueryTooLargeError } from '../../errors/index.ts';
import type { Store } from '../../store/store.ts';

export type TableAggregate = 'sum' | 'avg' | 'count' | 'max' | 'min';

/** A table's schema plus, per text column, some of its distinct values (to recognise "shipped", "Acme"). */
export interface TableSchema extends TableRecord {
  values?: Record<string, readonly string[]>;
}

export interface TableSqlPlan {
  sql: string;
  table: string;
  aggregate: TableAggregate;
  /** The aggregated column; absent for COUNT(*). */
  column?: string;
  filters: { column: string; value: string | number }[];
  groupBy?: string;
}

const VALUES_PER_COLUMN = 50;
/** Longer values are not words a question names; leaving them out keeps what reaches a prompt small. */
const VALUE_CHARS = 100;
/** Bounds of one column's distinct values: 50 short values, with room for multi-byte text. */
const VALUE_LIMITS = { maxRows: VALUES_PER_COLUMN, timeoutMs: 5_000, maxResultBytes: 64 * 1024, maxValueBytes: 4 * VALUE_CHARS };

/**
 * Schemas of the tables the principal may see, with up to 50 distinct short values of each text column, read
 * through the principal-filtered `queryTables` like any other table query. A column whose values cannot be read
 * within their bounds is listed without values.
 */
export async function loadTableSchemas(store: Store, principal: Principal): Promise<TableSchema[]> {
  const tables = await store.listTables(principal);
  return Promise.all(
    tables.map(async (table) => {
      const values: Record<string, string[]> = {};
      for (const column of table.columns.filter((c) => c.type === 'text')) {
        const name = quoteId(column.name);
        try {
          const result = await store.queryTables(
            `SELECT DISTINCT ${name} FROM ${quoteId(table.sqlName)} WHERE ${name} IS NOT NULL AND length(${name}) <= ${VALUE_CHARS}`,
            principal,
            VALUE_LIMITS,
          );
          values[column.name] = result.rows.map((row) => String(row[0]));
        } catch (error) {
          if (!QueryTooLargeError.isInstance(error) && !(QueryRejectedError.isInstance(error) && error.code === 'query_timeout')) throw error;
          values[column.name] = [];
        }
      }
      return { ...table, values };
    }),
  );
}

// Aggregates in the order they are tested: extremes and averages before "total", which also names columns.
const AGGREGATE_CUES: [TableAggregate, RegExp][] = [
  ['count', /\b(how many|number of|count of|count)\b/],
  ['avg', /\b(average|mean|avg)\b/],
  ['max', /\b(max|maximum|highest|largest|biggest|greatest|most expensive|top)\b/],
  ['min', /\b(min|minimum|lowest|smallest|least|cheapest)\b/],
  ['sum', /\b(sum|total|overall|combined|in total)\b/],
];

const STOPWORDS = new Set(
  'a an the of in on at to for by per each is are was were be what which who how many much did do does of and or with from that this there their its as all any our my your me it value values'.split(
    ' ',
  ),
);

/** Related words a column name may use for what the question says. */
const SYNONYMS: Record<string, string[]> = {
  amount: ['total', 'value', 'sum'],
  value: ['total', 'amount'],
  revenue: ['sales', 'total', 'amount'],
  price: ['cost', 'amount'],
  cost: ['price', 'amount'],
  dollars: ['usd'],
  dollar: ['usd'],
  euros: ['eur'],
  date: ['day'],
  client: ['customer'],
  customer: ['client'],
  qty: ['quantity'],
  quantity: ['qty', 'units'],
};

/** Words of a name or question: identifiers split at `_`, `-` and camelCase, lowercased, plural `s` dropped. */
function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(stem);
}

const stem = (word: string): string => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);

/** How well a column (or table) name matches question words: the share of its words the question mentions. */
function nameScore(name: string, questionWords: ReadonlySet<string>, questionText: string): number {
  const nameWords = words(name).filter((word) => !STOPWORDS.has(word));
  if (nameWords.length === 0) return 0;
  // The name written as is ("order_total_usd") is the strongest signal.
  const exact = new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(name.toLowerCase())}($|[^\\p{L}\\p{N}_])`, 'u').test(questionText);
  const hits = nameWords.filter(
    (word) => questionWords.has(word) || (SYNONYMS[word] ?? []).some((synonym) => questionWords.has(stem(synonym))),
  ).length;
  return (exact ? 1 : 0) + hits / nameWords.length;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const quoteId = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

interface Candidate {
  table: TableSchema;
  column: string | undefined;
  score: number;
}

/**
 * The offline strategy for table questions: SQL for one simple aggregation (sum, average, count, max, min) over
 * a column named in the question, optionally filtered by values the question mentions ("shipped", "Acme",
 * "where region is EMEA") and grouped "per"/"by"/"for each" a column. Tables and columns are chosen by name
 * similarity. `undefined` when the question is not such an aggregation or names no column it can find.
 */
export function tableQuestionToSql(question: string, tables: readonly TableSchema[]): TableSqlPlan | undefined {
  const text = question.toLowerCase().replace(/\s+/g, ' ');
  // Cues are looked for in plain words only: "total" inside "order_total_usd" is a column name, not a sum.
  const plain = text.replace(/[\p{L}\p{N}]+(?:[_-][\p{L}\p{N}]+)+/gu, ' ');
  const aggregate = AGGREGATE_CUES.find(([, cue]) => cue.test(plain))?.[0];
  if (!aggregate || tables.length === 0) return undefined;
  const questionWords = new Set(words(question).filter((word) => !STOPWORDS.has(word)));

  const groupMatch = /\b(?:per|by|for each|for every|grouped by|broken down by)\s+([\p{L}\p{N}_ -]+?)(?=[?.!,;]|$)/u.exec(text);
  let best: (Candidate & { groupBy?: string; filters: TableSqlPlan['filters'] }) | undefined;
  for (const table of tables) {
    const tableScore = Math.max(nameScore(table.title, questionWords, text), nameScore(table.sqlName, questionWords, text)) * 0.5;
    const groupBy = groupMatch ? bestColumn(table, groupMatch[1] as string, () => true) : undefined;
    const filters = explicitFilter(table, text) ?? valueFilters(table, text, groupBy);
    const filterScore = filters.length * 0.5;
    let column: string | undefined;
    let columnScore = 0;
    if (aggregate !== 'count') {
      const used = new Set([groupBy, ...filters.map((filter) => filter.column)]);
      for (const candidate of table.columns) {
        if (candidate.type !== 'integer' && candidate.type !== 'real') continue;
        if (used.has(candidate.name)) continue;
        const score = nameScore(candidate.name, questionWords, text);
        if (score > columnScore) {
          column = candidate.name;
          columnScore = score;
        }
      }
      // At least half the column's words must be in the question: "total headcount" does not name order_total_usd.
      if (!column || columnScore < 0.5) continue;
    }
    const score = columnScore + tableScore + filterScore + (groupBy ? 0.25 : 0);
    if (!best || score > best.score) best = { table, column, score, filters, ...(groupBy ? { groupBy } : {}) };
  }
  if (!best) return undefined;
  // A count needs something that ties the question to the table (its name, a value in it, a grouping column):
  // "how many AAPL shares" is not a count of the only table's rows.
  if (aggregate === 'count' && best.score === 0) return undefined;

  const target = best.column === undefined ? 'COUNT(*)' : `${aggregate.toUpperCase()}(${quoteId(best.column)})`;
  const where = best.filters.map(({ column, value }) =>
    typeof value === 'number' ? `${quoteId(column)} = ${value}` : `lower(${quoteId(column)}) = ${quoteLiteral(value.toLowerCase())}`,
  );
  const select = best.groupBy ? `${quoteId(best.groupBy)}, ${target} AS result` : `${target} AS result`;
  const sql = [
    `SELECT ${select} FROM ${quoteId(best.table.sqlName)}`,
    where.length > 0 ? `WHERE ${where.join(' AND ')}` : '',
    best.groupBy ? `GROUP BY ${quoteId(best.groupBy)} ORDER BY ${quoteId(best.groupBy)}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    sql,
    table: best.table.sqlName,
    aggregate,
    ...(best.column === undefined ? {} : { column: best.column }),
    filters: best.filters,
    ...(best.groupBy ? { groupBy: best.groupBy } : {}),
  };
}

/** The column whose name best matches `phrase` (at least half its words), among those `accept` lets through. */
function bestColumn(table: TableSchema, phrase: string, accept: (type: string) => boolean): string | undefined {
  const phraseWords = new Set(words(phrase).filter((word) => !STOPWORDS.has(word)));
  let chosen: string | undefined;
  let top = 0.5;
  for (const column of table.columns) {
    if (!accept(column.type)) continue;
    const score = nameScore(column.name, phraseWords, phrase.toLowerCase());
    if (score >= top) {
      chosen = column.name;
      top = score + 1e-9;
    }
  }
  return chosen;
}

/** `where <column> is|= <value>`. */
function explicitFilter(table: TableSchema, text: string): TableSqlPlan['filters'] | undefined {
  const match = /\bwhere\s+(?:the\s+)?([\p{L}\p{N}_ -]+?)\s+(?:is|=|equals)\s+['"]?([^'"?!,;]+?)['"]?\s*(?=[?!,;]|$)/u.exec(text);
  if (!match) return undefined;
  const column = bestColumn(table, match[1] as string, () => true);
  if (!column) return undefined;
  const raw = (match[2] as string).trim();
  const type = table.columns.find((c) => c.name === column)?.type;
  const value = (type === 'integer' || type === 'real') && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  return [{ column, value }];
}

/** Known values of text columns that the question mentions as words ("shipped orders", "did Acme place"). */
function valueFilters(table: TableSchema, text: string, groupBy: string | undefined): TableSqlPlan['filters'] {
  const filters: TableSqlPlan['filters'] = [];
  for (const [column, values] of Object.entries(table.values ?? {})) {
    if (column === groupBy) continue;
    const mentioned = values.filter((value) => {
      const lower = value.toLowerCase().trim();
      if (lower.length < 2 || STOPWORDS.has(lower)) return false;
      return new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(lower)}($|[^\\p{L}\\p{N}_])`, 'u').test(text);
    });
    // One value per column: several would need OR, which this strategy does not attempt.
    if (mentioned.length === 1) filters.push({ column, value: mentioned[0] as string });
  }
  return filters;
}
