import type { AgentContext, AgentFactory } from '../agent-context.ts';
import { defineAgent } from '../../runs/define-agent.ts';
import { sharedServices } from '../core/shared-deps.ts';
import type { ReactDeps } from './react-deps.ts';
import { buildReactGraph } from './react-graph.ts';

/** react's node dependencies: the shared services, rag's bounds (memory, evidence, retries) and its loop's (`agents.react`). */
export const reactDeps = (context: Pick<AgentContext, 'services' | 'chat' | 'instructions'>): ReactDeps => ({
  ...sharedServices(context),
  ...context.services.config.agents.rag,
  ...context.services.config.agents.react,
  protocol: 'auto',
});

/** The `react` agent, checkpointed by thread_id. */
export const reactAgent: AgentFactory = (context) => {
  const deps = reactDeps(context);
  return defineAgent({
    name: 'react',
    description: `ReAct: reasons and acts in a loop (at most ${deps.maxIterations} iterations) over knowledge_base (RAG fusion: several queries, hybrid retrieval, reciprocal rank fusion), table_query and save_memory (with approval); the final answer is citation-checked.`,
    graph: buildReactGraph(deps, { checkpointer: context.checkpointer }),
    streamsMessages: context.chat !== undefined,
  });
};
