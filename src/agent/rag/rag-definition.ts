import type { RagAgent } from '../rag-agent.ts';
import { ragTrace } from './rag-trace.ts';
import type { AgentDefinition } from '../runs/agent-definition.ts';
import { defineAgent } from '../runs/define-agent.ts';
import type { RagStateType } from '../core/state.ts';

/** The `rag` agent for the run runtime. */
export const ragDefinition = (agent: RagAgent): AgentDefinition =>
  defineAgent({
    name: 'rag',
    description:
      'Enterprise RAG: rewrite, decompose, hybrid retrieval, rerank, answerability check, schema-validated answer with citations; refuses when the evidence is insufficient.',
    graph: agent.graph,
    trace: (values) => ragTrace(values as Partial<RagStateType>),
  });
