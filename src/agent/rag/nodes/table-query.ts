import type { Candidate } from '../../../domain/evidence.ts';
import { answerFromTables } from '../../core/tools/table-query-answer.ts';
import type { RagNode } from '../rag-deps.ts';

/**
 * Answers through the `table_query` tool, as the asking principal (model SQL with one retry, else the offline
 * question→SQL strategy; see `answerFromTables`, which `controllable` shares). Every attempt is a recorded tool call.
 * The answer cites the table chunks holding the rows it was computed from; they become the run's evidence (and its
 * ranked candidates), so the citation and retrieval layers see what the answer stands on. On the `both` route the
 * answer is kept aside (`table_answer`) while the text is retrieved and answered. Nothing answered leaves `answer`
 * empty, and the graph falls back to retrieval.
 */
export const tableQuery: RagNode = async (state, deps) => {
  const principal = state.principal;
  const question = state.standalone_question || state.question;
  if (!principal) return { update: {}, summary: 'no principal' };
  const result = await answerFromTables(question, principal, deps);
  const calls = [...state.tool_calls, ...result.calls];
  const errors = [...state.errors, ...result.errors];
  if (!result.answer) {
    return {
      update: { tool_calls: calls, errors, route: 'retrieve', table_answer: null, table_evidence: [] },
      summary: `${result.summary}: falling back to retrieval`,
    };
  }
  if (state.route === 'both') {
    // The text is retrieved next; the table's answer waits to be joined with the text's (combine_answers).
    return {
      update: { tool_calls: calls, errors, table_answer: result.answer, table_evidence: result.evidence },
      summary: `${result.summary}; retrieving the text as well`,
    };
  }
  const candidates: Candidate[] = result.evidence.map((item, index) => ({
    query: question,
    channel: 'fused',
    chunk_id: item.chunk_id,
    rank: index + 1,
    score: item.score,
  }));
  return {
    update: {
      tool_calls: calls,
      errors,
      answer: result.answer,
      evidence: result.evidence,
      candidates,
      status: 'answered',
    },
    summary: result.summary,
  };
};
