import type { AgentFactory } from '../agent-context.ts';
import { defineAgent } from '../../runs/define-agent.ts';
import { sharedServices } from '../core/shared-deps.ts';
import type { ControllableDeps } from './controllable-deps.ts';
import { buildControllableGraph } from './controllable-graph.ts';

/** The `controllable` agent, checkpointed by thread_id, within the configured bounds (`agents.controllable`). */
export const controllableAgent: AgentFactory = (context) => {
  const { services, chat, checkpointer } = context;
  const deps: ControllableDeps = { ...sharedServices(context), ...services.config.agents.controllable };
  return defineAgent({
    name: 'controllable',
    description:
      'Plan and execute: anonymizes the question, plans on it, routes each task to retrieve_chunks, retrieve_summaries, retrieve_quotes, table_query (SQL over ingested tables) or answer_from_context, keeps the relevant content, checks relevance (rewrites and retries) and groundedness (answers again), replans, and ends with a citation-checked answer; every loop bounded. Saves a memory ("remember that …") only after an approval.',
    graph: buildControllableGraph(deps, { checkpointer }),
    streamsMessages: chat !== undefined,
  });
};
