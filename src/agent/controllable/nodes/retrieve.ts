import type { ControllableNode } from '../controllable-deps.ts';
import type { RetrievalTool } from '../controllable-state.ts';
import { runRetrievalTool } from '../tools/retrieval-tools.ts';

/** A retrieval node for one tool: the current query, as the run's principal. */
export function retrieveWith(tool: RetrievalTool): ControllableNode {
  return async (state, deps) => {
    const principal = state.principal;
    if (!principal) throw new Error(`controllable: ${tool} needs the principal`);
    const query = state.query_to_retrieve_or_answer || state.curr_task;
    const { items, evidence, call } = await runRetrievalTool(tool, query, principal, deps);
    return {
      update: { curr_context: items, curr_evidence: evidence, tool_calls: [...state.tool_calls, call] },
      summary: `"${query}" → ${items.length} item(s)`,
    };
  };
}
