import { loadTableSchemas, tableQuestionToSql } from '../../tools/table-question-to-sql.ts';
import type { RagNode } from '../rag-deps.ts';

/** Greetings and thanks: nothing to retrieve. */
const SMALL_TALK = /^\s*(hi|hello|hey|thanks|thank you|good (morning|afternoon|evening))\b[\s!.,]*(there|a lot|so much|evident)?[\s!.]*$/i;

/**
 * Chooses the path: small talk is answered directly, an aggregation over a named table column goes to the
 * `table_query` tool (never arithmetic over chunks), everything else to retrieval. The same deterministic test runs
 * with and without a chat model, so routing is reproducible.
 */
export const route: RagNode = async (state, deps) => {
  const question = state.standalone_question || state.question;
  if (SMALL_TALK.test(question)) return { update: { route: 'direct' }, summary: 'direct: no retrieval needed' };
  const principal = state.principal;
  if (principal && state.sub_questions.length <= 1) {
    const tables = await deps.store.listTables(principal);
    if (tables.length > 0) {
      const plan = tableQuestionToSql(question, await loadTableSchemas(deps.store, principal));
      if (plan) return { update: { route: 'table' }, summary: `table: ${plan.aggregate} over ${plan.table}` };
    }
  }
  return { update: { route: 'retrieve' }, summary: 'retrieve' };
};
