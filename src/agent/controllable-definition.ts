import type { RunRecordStatus } from '../store/store.ts';
import type { ControllableAgent } from './controllable/controllable-agent.ts';
import type { ControllableStateType } from './controllable/controllable-state.ts';
import { conversationOf } from './rag-definition.ts';
import type { AgentDefinition, AgentGraph } from './runs/agent-definition.ts';
import type { RagStateType } from './state.ts';

/** The `controllable` agent for the run runtime: the same input, view and outcome as rag (its state carries the shared fields). */
export function controllableDefinition(agent: ControllableAgent): AgentDefinition {
  return {
    name: 'controllable',
    description:
      'Plan and execute: anonymizes the question, plans on it, routes each task to retrieve_chunks, retrieve_summaries, retrieve_quotes or answer_from_context, keeps the relevant content, checks relevance (rewrites and retries) and groundedness (answers again), replans, and ends with a citation-checked answer; every loop bounded.',
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
    // conversationOf reads only history, status and question, which both states share.
    view: (values) => ({ ...values, messages: conversationOf(values as Partial<RagStateType>) }),
    outcome(values): RunRecordStatus {
      const status = (values as Partial<ControllableStateType>).status;
      return status === 'answered' || status === 'refused' ? status : 'failed';
    },
    async forgetThread(threadId) {
      const saver = agent.graph.checkpointer;
      if (saver && typeof saver === 'object') await saver.deleteThread(threadId);
    },
  };
}
