import type { ReactAgent } from './react-agent.ts';
import type { AgentDefinition } from '../runs/agent-definition.ts';
import { defineAgent } from '../runs/define-agent.ts';

/** The `react` agent for the run runtime. */
export const reactDefinition = (agent: ReactAgent): AgentDefinition =>
  defineAgent({
    name: 'react',
    description:
      'ReAct: reasons and acts in a loop (at most 10 iterations) over knowledge_base (RAG fusion: several queries, hybrid retrieval, reciprocal rank fusion), table_query and save_memory (with approval); the final answer is citation-checked.',
    graph: agent.graph,
  });
