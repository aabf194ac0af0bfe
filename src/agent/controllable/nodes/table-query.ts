import { answerFromTables } from '../../core/tools/table-query-answer.ts';
import type { ControllableNode } from '../controllable-deps.ts';

/**
 * The `table_query` task: answers the task's question through the shared table answering (`answerFromTables`, as
 * `rag` does): SQL from the chat model with one retry, else from the offline question→SQL strategy, run by the
 * `table_query` tool as the asking principal. Rows make the run's answer, citing the table chunks that hold the rows
 * it was computed from (they join the run's evidence); none leave the answer unset and the graph retrieves passages
 * for the task instead.
 */
export const tableQuery: ControllableNode = async (state, deps) => {
  const principal = state.principal;
  if (!principal) return { update: {}, summary: 'no principal: retrieving instead' };
  const question = state.query_to_retrieve_or_answer || state.standalone_question || state.question;
  const result = await answerFromTables(question, principal, deps);
  const update = { tool_calls: [...state.tool_calls, ...result.calls], errors: [...state.errors, ...result.errors] };
  if (!result.answer)
    return { update: { ...update, tool: 'retrieve_chunks' }, summary: `${result.summary}: retrieving instead` };
  const known = new Set(state.evidence.map((item) => item.chunk_id));
  const evidence = [...state.evidence, ...result.evidence.filter((item) => !known.has(item.chunk_id))];
  return {
    update: { ...update, evidence, answer: result.answer, response: result.answer.answer, status: 'answered' },
    summary: result.summary,
  };
};
