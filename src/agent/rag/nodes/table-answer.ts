import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import type { Principal } from '../../../domain/index.ts';
import { isEvidentError } from '../../../errors/index.ts';
import { generateStructured } from '../../../models/chat/structured-output.ts';
import { loadTableSchemas, tableQuestionToSql, type TableSchema, type TableSqlPlan } from '../../tools/table-question-to-sql.ts';
import { describeTables, formatCell, type TableQueryOutput } from '../../tools/table-query.ts';
import type { RunError, ToolCallRecord } from '../../core/state.ts';
import type { RagDeps, RagNode } from '../rag-deps.ts';

const sqlSchema = z.object({ sql: z.string().min(1) });
/** The model's first query plus one retry with the tool's error fed back. */
const MODEL_SQL_ATTEMPTS = 2;

type Success = Extract<TableQueryOutput, { ok: true }>;

/** Runs one query through the `table_query` tool as the principal and records the call. */
async function runTool(sql: string, deps: RagDeps, principal: Principal): Promise<{ call: ToolCallRecord; output: TableQueryOutput }> {
  const started = performance.now();
  const output = await deps.tableQuery.invoke({ sql }, principal);
  const call: ToolCallRecord = {
    name: deps.tableQuery.name,
    arguments: { sql },
    result_summary: output.summary,
    ok: output.ok,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
  };
  return { call, output };
}

const answered = (output: TableQueryOutput): output is Success => output.ok && output.rows.length > 0;

/**
 * With a model: it writes the SQL from the question and the schemas of the tables this principal may see (never
 * others); the store's guard validates it, and a refusal or SQL error is fed back for one corrected attempt.
 */
async function modelSql(
  question: string,
  schemas: readonly TableSchema[],
  deps: RagDeps,
  principal: Principal,
  record: { calls: ToolCallRecord[]; errors: RunError[] },
): Promise<Success | undefined> {
  if (!deps.chat || schemas.length === 0) return undefined;
  const messages: BaseMessage[] = [
    new SystemMessage(
      `Write one read-only ${deps.store.sqlDialect} SELECT statement that answers the question from these tables. ` +
        'Use only the tables and columns listed; quote column names with double quotes. Compute in SQL (SUM, COUNT, AVG, MAX, MIN, GROUP BY).',
    ),
    new HumanMessage(`Tables:\n${describeTables(schemas)}\n\nQuestion: ${question}`),
  ];
  for (let attempt = 0; attempt < MODEL_SQL_ATTEMPTS; attempt++) {
    let sql: string;
    try {
      ({ sql } = await generateStructured({ model: deps.chat.model, schema: sqlSchema, name: 'table_sql', maxRetries: deps.maxSchemaRetries, messages }));
    } catch (error) {
      if (!isEvidentError(error)) throw error;
      record.errors.push({ node: 'table_query', code: error.code, message: error.message });
      return undefined;
    }
    const { call, output } = await runTool(sql, deps, principal);
    record.calls.push(call);
    if (answered(output)) return output;
    const problem = output.ok ? 'The query returned no rows.' : `table_query rejected it: ${output.summary}`;
    messages.push(new AIMessage(JSON.stringify({ sql })), new HumanMessage(`${problem}\nWrite a corrected query.`));
  }
  return undefined;
}

/** "the sum of order_total_usd where status = shipped" for an offline plan. */
const describePlan = (plan: TableSqlPlan): string =>
  `${plan.aggregate}${plan.column ? ` of ${plan.column}` : ''}${
    plan.filters.length ? ` where ${plan.filters.map((f) => `${f.column} = ${f.value}`).join(' and ')}` : ''
  }`;

/**
 * Answers an aggregation through the `table_query` tool, as the asking principal: SQL written by the chat model
 * when there is one (one retry with the error), else, or after the model's queries failed, by the deterministic
 * question→SQL strategy. Every attempt is a recorded tool call. The number comes from SQL, never from the model's
 * arithmetic. Nothing answered leaves `answer` empty, and the graph falls back to retrieval.
 */
export const tableAnswer: RagNode = async (state, deps) => {
  const principal = state.principal;
  const question = state.standalone_question || state.question;
  if (!principal) return { update: {}, summary: 'no principal' };
  const schemas = await loadTableSchemas(deps.store, principal);
  const record = { calls: [...state.tool_calls], errors: [...state.errors] };
  let output = await modelSql(question, schemas, deps, principal, record);
  let plan: TableSqlPlan | undefined;
  if (!output) {
    plan = tableQuestionToSql(question, schemas);
    if (plan) {
      const { call, output: offline } = await runTool(plan.sql, deps, principal);
      record.calls.push(call);
      if (answered(offline)) output = offline;
    }
  }
  const attempts = record.calls.length - state.tool_calls.length;
  if (!output) {
    const last = record.calls.at(-1)?.result_summary.split('\n')[0];
    return {
      update: { tool_calls: record.calls, errors: record.errors, route: 'retrieve' },
      summary: attempts ? `table_query failed after ${attempts} attempt(s): ${last}` : 'no SQL plan: falling back to retrieval',
    };
  }
  const sql = output.sql;
  const docIds = schemas.filter((table) => sql.toLowerCase().includes(table.sqlName.toLowerCase())).map((table) => table.docId);
  const source = docIds.length ? docIds.join(', ') : 'the tables';
  const value =
    output.rows.length === 1 && (output.columns.length === 1 || (plan && !plan.groupBy))
      ? formatCell(output.rows[0]?.at(-1))
      : output.rows.map((row) => row.map(formatCell).join(': ')).join('; ');
  const what = plan ? `The ${describePlan(plan)} in ${source}` : `The result over ${source}`;
  const label = !deps.chat ? ' (offline: computed by table_query)' : plan ? " (SQL from the offline strategy after the model's queries failed)" : '';
  const answer = {
    answer: `${what} is ${value}.${label} SQL: ${sql}`,
    answerable: true,
    confidence: 0.9,
    citations: [],
    missing_information: [],
  };
  return {
    update: { tool_calls: record.calls, errors: record.errors, answer, status: 'answered' },
    summary: `table_query${attempts > 1 ? ` (attempt ${attempts})` : ''}: ${value}`,
  };
};
