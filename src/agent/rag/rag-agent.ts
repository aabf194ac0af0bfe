import type { AgentContext, AgentFactory } from '../agent-context.ts';
import { defineAgent } from '../../runs/define-agent.ts';
import { sharedServices } from '../core/shared-deps.ts';
import type { RagDeps } from './rag-deps.ts';
import { buildRagGraph } from './rag-graph.ts';
import type { RagStateType } from './rag-state.ts';
import { ragTrace } from './rag-trace.ts';

/** rag's node dependencies: the services, the configured bounds (`agents.rag`) and the chat model, if any. */
export const ragDeps = (context: Pick<AgentContext, 'services' | 'chat' | 'instructions'>): RagDeps => ({
  ...sharedServices(context),
  ...context.services.config.agents.rag,
});

/** The `rag` agent, checkpointed by thread_id. */
export const ragAgent: AgentFactory = (context) =>
  defineAgent({
    name: 'rag',
    description:
      'Enterprise RAG: rewrite, decompose, hybrid retrieval, rerank, answerability check, schema-validated answer with citations; refuses when the evidence is insufficient.',
    graph: buildRagGraph(ragDeps(context), { checkpointer: context.checkpointer }),
    trace: (values) => ragTrace(values as Partial<RagStateType>),
    streamsMessages: context.chat !== undefined,
  });
