import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import type { Answer } from '../../../domain/answer.ts';
import type { Principal } from '../../../domain/index.ts';
import { isEvidentError } from '../../../errors/index.ts';
import { generateStructured } from '../../../models/chat/structured-output.ts';
import type { DocumentStore } from '../../../store/store.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { RunError, ToolCallRecord } from '../../../domain/step.ts';
import { tableEvidence } from './table-evidence.ts';
import { planFits, tableAnswerRefused } from '../evidence-gate/table-fit.ts';
import type { GateThresholds } from '../evidence-gate/evidence-gate.ts';
import { offlineTableRoute } from '../../table-sql/table-route.ts';
import { tableQuestionToSql, type TableSqlPlan } from '../../table-sql/table-question-to-sql.ts';
import { loadTableSchemas, type TableSchema } from '../../table-sql/table-schemas.ts';
import { describeTables, formatCell, type TableQueryOutput, type TableQueryTool } from './table-query.ts';

const sqlSchema = z.object({ sql: z.string().min(1) });
/** The model's first query plus one retry with the tool's error fed back. */
const MODEL_SQL_ATTEMPTS = 2;

/** Source rows an answer quotes in its text; more are cited but not repeated. */
const SHOWN_ROWS = 3;

type Success = Extract<TableQueryOutput, { ok: true }>;

/** What answering from tables needs: the store (schemas, dialect), the `table_query` tool, and a chat model if any. */
export interface TableAnswerDeps {
  store: DocumentStore;
  tableQuery: TableQueryTool;
  chat?: { model: BaseChatModel };
  maxSchemaRetries: number;
  /** With `enforce`, a table answer the evidence gate refuses is no answer: the run retrieves the text instead. */
  evidenceGate?: 'enforce' | 'off';
  gateThresholds?: GateThresholds;
}

export interface TableAnswerResult {
  /** Every `table_query` call made, in order (failed ones included). */
  calls: ToolCallRecord[];
  errors: RunError[];
  /** Set when a query returned rows. */
  answer?: Answer;
  /** The offline plan, when the strategy wrote the answered SQL. */
  plan?: TableSqlPlan;
  /** The table chunks the answer cites (the rows it was computed from, or the table's heading). */
  evidence: Evidence[];
  summary: string;
}

/** Runs one query through the `table_query` tool as the principal and records the call. */
export async function runTableQuery(
  sql: string,
  tool: TableQueryTool,
  principal: Principal,
): Promise<{ call: ToolCallRecord; output: TableQueryOutput }> {
  const started = performance.now();
  const output = await tool.invoke({ sql }, principal);
  const call: ToolCallRecord = {
    name: tool.name,
    arguments: { sql },
    result_summary: output.summary,
    ok: output.ok,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    ...(output.ok ? { doc_ids: output.doc_ids } : {}),
  };
  return { call, output };
}

export const answered = (output: TableQueryOutput): output is Success =>
  output.ok && output.rows.length > 0 && output.rows.some((row) => row.some((cell) => cell !== null));

/**
 * With a model: it writes the SQL from the question and the schemas of the tables this principal may see (never
 * others); the store's guard validates it, and a refusal or SQL error is fed back for one corrected attempt.
 */
async function modelSql(
  question: string,
  schemas: readonly TableSchema[],
  deps: TableAnswerDeps,
  principal: Principal,
  record: { calls: ToolCallRecord[]; errors: RunError[] },
): Promise<Success | undefined> {
  if (!deps.chat || schemas.length === 0) return undefined;
  const messages: BaseMessage[] = [
    new SystemMessage(
      `Write one read-only ${deps.store.sqlDialect} SELECT statement that answers the question from these tables. ` +
        'Use only the tables and columns listed; quote column names with double quotes. Compute in SQL (SUM, COUNT, AVG, MAX, MIN, GROUP BY, ORDER BY … LIMIT 1).',
    ),
    new HumanMessage(`Tables:\n${describeTables(schemas)}\n\nQuestion: ${question}`),
  ];
  for (let attempt = 0; attempt < MODEL_SQL_ATTEMPTS; attempt++) {
    let sql: string;
    try {
      ({ sql } = await generateStructured({
        model: deps.chat.model,
        schema: sqlSchema,
        name: 'table_sql',
        maxRetries: deps.maxSchemaRetries,
        messages,
      }));
    } catch (error) {
      if (!isEvidentError(error)) throw error;
      record.errors.push({ node: 'table_query', code: error.code, message: error.message });
      return undefined;
    }
    const { call, output } = await runTableQuery(sql, deps.tableQuery, principal);
    record.calls.push(call);
    if (answered(output)) return output;
    const problem = output.ok ? 'The query returned no rows.' : `table_query rejected it: ${output.summary}`;
    messages.push(new AIMessage(JSON.stringify({ sql })), new HumanMessage(`${problem}\nWrite a corrected query.`));
  }
  return undefined;
}

const SHAPE_WORDS: Record<TableSqlPlan['aggregate'], string> = {
  sum: 'sum',
  avg: 'average',
  count: 'count',
  max: 'maximum',
  min: 'minimum',
  lookup: 'value',
  argmax: 'row with the largest',
  argmin: 'row with the smallest',
  mode: 'most frequent',
  antimode: 'least frequent',
  first: 'first',
  last: 'last',
  next: 'next',
  previous: 'previous',
  difference: 'difference',
};

/** "the sum of order_total_usd where status = shipped" for an offline plan. */
export function describePlan(plan: TableSqlPlan): string {
  const shape = SHAPE_WORDS[plan.aggregate];
  const what =
    plan.aggregate === 'argmax' || plan.aggregate === 'argmin'
      ? `${plan.target} of the ${shape} ${plan.column}`
      : plan.target && plan.aggregate !== 'count'
        ? `${shape === 'value' ? '' : `${shape} `}${plan.target}`
        : `${shape}${plan.column ? ` of ${plan.column}` : ''}`;
  const filters = plan.filters.map(
    (filter) =>
      `${filter.columns.join(' or ')} ${filter.op === '=' ? '=' : filter.op} ${filter.values.map(String).join(' or ')}`,
  );
  return `${what}${filters.length ? ` where ${filters.join(' and ')}` : ''}`;
}

/** The value an answer states: one cell, a list of single cells, or `key: value` rows. */
export function tableValue(
  output: { columns: readonly string[]; rows: readonly unknown[][] },
  plan?: TableSqlPlan,
): string {
  const rows = output.rows;
  if (rows.length === 1 && (output.columns.length === 1 || (plan && !plan.groupBy))) return formatCell(rows[0]?.at(-1));
  if (output.columns.length === 1) return rows.map((row) => formatCell(row[0])).join(', ');
  return rows.map((row) => row.map(formatCell).join(': ')).join('; ');
}

/**
 * Answers a question through the `table_query` tool, as the asking principal: SQL written by the chat model when there
 * is one (one retry with the error), else, or after the model's queries failed, by the deterministic question→SQL
 * strategy. Every attempt is a recorded call. Values come from SQL, never from the model's arithmetic. No rows leave
 * `answer` unset, and the caller falls back to retrieval.
 */
export async function answerFromTables(
  question: string,
  principal: Principal,
  deps: TableAnswerDeps,
): Promise<TableAnswerResult> {
  const schemas = await loadTableSchemas(deps.store, principal);
  const record = { calls: [] as ToolCallRecord[], errors: [] as RunError[] };
  let output = await modelSql(question, schemas, deps, principal, record);
  let plan: TableSqlPlan | undefined;
  if (!output) {
    plan = tableQuestionToSql(question, schemas, { dialect: deps.store.sqlDialect });
    const table = schemas.find((schema) => schema.sqlName === plan?.table);
    // A computation that does not answer the question (rows counted for "how many layers") is no answer: retrieve.
    if (plan && !planFits(question, plan, table).fits) plan = undefined;
    if (plan) {
      const { call, output: offline } = await runTableQuery(plan.sql, deps.tableQuery, principal);
      record.calls.push(call);
      if (answered(offline)) output = offline;
    }
  }
  const attempts = record.calls.length;
  if (!output) {
    const last = record.calls.at(-1)?.result_summary.split('\n')[0];
    return {
      ...record,
      evidence: [],
      summary: attempts ? `table_query gave no answer after ${attempts} attempt(s): ${last}` : 'no SQL plan',
    };
  }
  const sql = output.sql.toLowerCase();
  const docIds = schemas.filter((table) => sql.includes(table.sqlName.toLowerCase())).map((table) => table.docId);
  const source = docIds.length ? docIds.join(', ') : 'the tables';
  const value = tableValue(output, plan);
  const what = plan ? `The ${describePlan(plan)} in ${source}` : `The result over ${source}`;
  const label = !deps.chat
    ? ' (offline: computed by table_query)'
    : plan
      ? " (SQL from the offline strategy after the model's queries failed)"
      : '';
  const cited = await tableEvidence(output.sql, principal, deps.store, question);
  // A few source rows are shown as well: they hold what else the question may ask of them (who placed an order).
  const shown =
    cited.rows.length > 0 && cited.rows.length <= SHOWN_ROWS && !cited.more
      ? ` From the row${cited.rows.length > 1 ? 's' : ''}: ${cited.rows.join('; ')}.`
      : '';
  const marker = cited.citations.length ? ` ${cited.citations.map((_, i) => `[${i + 1}]`).join('')}` : '';
  const answer: Answer = {
    answer: `${what} is ${value}.${shown}${marker}${label}`,
    answerable: true,
    confidence: 0.9,
    citations: cited.citations,
    missing_information: [],
  };
  const refused =
    deps.evidenceGate === 'off'
      ? undefined
      : tableAnswerRefused(question, answer, cited.evidence, record.calls, deps.gateThresholds);
  if (refused)
    return { ...record, evidence: [], summary: `table_query: ${value}, refused by the evidence gate (${refused})` };
  return {
    ...record,
    ...(plan ? { plan } : {}),
    evidence: cited.evidence,
    answer,
    summary: `table_query${attempts > 1 ? ` (attempt ${attempts})` : ''}: ${value}; cites ${cited.citations.length} line(s) of ${cited.evidence.map((item) => item.chunk_id).join(', ') || 'no chunk'}`,
  };
}

/**
 * The offline strategy's plan for a question over the tables the principal may see, or `undefined` (no tables, the
 * question is not tied to one, or the documents' text answers it better: see `offlineTableRoute`). Agents route a
 * question to `table_query` offline exactly when this plans it.
 */
export async function offlineTablePlan(
  question: string,
  principal: Principal,
  store: DocumentStore,
): Promise<TableSqlPlan | undefined> {
  const decision = await offlineTableRoute(question, principal, store);
  if (decision.route !== 'table' || !decision.plan) return undefined;
  return planFits(question, decision.plan, decision.table).fits ? decision.plan : undefined;
}
