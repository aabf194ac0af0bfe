import type { RunRecordStatus } from '../store/store.ts';
import { conversationOf } from './rag-definition.ts';
import type { ReactAgent } from './react/react-agent.ts';
import type { AgentDefinition, AgentGraph } from './runs/agent-definition.ts';
import type { RagStateType } from './state.ts';

/** The `react` agent for the run runtime: the same input, view and outcome as rag, since its state carries rag's fields. */
export function reactDefinition(agent: ReactAgent): AgentDefinition {
  return {
    name: 'react',
    description:
      'ReAct: reasons and acts in a loop (at most 10 iterations) over knowledge_base (RAG fusion: several queries, hybrid retrieval, reciprocal rank fusion), table_query and save_memory (with approval); the final answer is citation-checked.',
    // The compiled graph's overloaded generics are wider than the structural port; the methods are the same.
    graph: agent.graph as unknown as AgentGraph,
    inputFor(start, threadHasState) {
      return {
        question: start.question,
        principal: start.principal,
        thread_id: start.threadId,
        run_id: start.runId,
        ...(!threadHasState && start.history.length > 0 ? { history: start.history } : {}),
      };
    },
    view: (values) => ({ ...values, messages: conversationOf(values as Partial<RagStateType>) }),
    outcome(values): RunRecordStatus {
      const status = (values as Partial<RagStateType>).status;
      return status === 'answered' || status === 'refused' ? status : 'failed';
    },
    async forgetThread(threadId) {
      const saver = agent.graph.checkpointer;
      if (saver && typeof saver === 'object') await saver.deleteThread(threadId);
    },
  };
}
