import { loadTableSchemas, tableQuestionToSql } from '../tools/table-question-to-sql.ts';
import { formatCell } from '../tools/table-query.ts';
import type { ToolCallRecord } from '../state.ts';
import type { RagNode } from './rag-deps.ts';

/**
 * Answers an aggregation with one read-only SELECT through the `table_query` tool, as the asking principal. The SQL
 * comes from the deterministic question→SQL strategy in both modes. A failed query leaves `answer` empty, and the
 * graph falls back to retrieval.
 */
export const tableAnswer: RagNode = async (state, deps) => {
  const principal = state.principal;
  const question = state.standalone_question || state.question;
  if (!principal) return { update: {}, summary: 'no principal' };
  const plan = tableQuestionToSql(question, await loadTableSchemas(deps.store, principal));
  if (!plan) return { update: { route: 'retrieve' }, summary: 'no SQL plan: falling back to retrieval' };
  const started = performance.now();
  const output = await deps.tableQuery.invoke({ sql: plan.sql }, principal);
  const call: ToolCallRecord = {
    name: deps.tableQuery.name,
    arguments: { sql: plan.sql },
    result_summary: output.summary,
    ok: output.ok,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
  };
  const tool_calls = [...state.tool_calls, call];
  if (!output.ok || output.rows.length === 0) {
    return { update: { tool_calls, route: 'retrieve' }, summary: `table_query failed: ${output.summary.split('\n')[0]}` };
  }
  const tables = await deps.store.listTables(principal);
  const docId = tables.find((table) => table.sqlName === plan.table)?.docId ?? plan.table;
  const what = `${plan.aggregate}${plan.column ? ` of ${plan.column}` : ''}${
    plan.filters.length ? ` where ${plan.filters.map((f) => `${f.column} = ${f.value}`).join(' and ')}` : ''
  }`;
  const value = output.rows.length === 1 && !plan.groupBy
    ? formatCell(output.rows[0]?.at(-1))
    : output.rows.map((row) => row.map(formatCell).join(': ')).join('; ');
  const label = deps.chat ? '' : ' (offline: computed by table_query)';
  const answer = {
    answer: `The ${what} in ${docId} is ${value}.${label} SQL: ${plan.sql}`,
    answerable: true,
    confidence: 0.9,
    citations: [],
    missing_information: [],
  };
  return { update: { tool_calls, answer, status: 'answered' }, summary: `table_query: ${value}` };
};
