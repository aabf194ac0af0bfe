import type { RunRecordStatus } from '../store/store.ts';
import type { RagAgent } from './rag-agent.ts';
import { ragTrace } from './rag-trace.ts';
import type { AgentDefinition, AgentGraph } from './runs/agent-definition.ts';
import type { RagStateType, Turn } from './state.ts';

/** A conversation turn as LangGraph chat clients read it (`messages` in a thread's values). */
export interface ChatMessage {
  id: string;
  type: 'human' | 'ai';
  content: string;
}

/**
 * The thread's conversation as chat messages: its history, plus the question of a run still under way (finalize
 * appends it to the history only when the run ends).
 */
export function conversationOf(values: Partial<RagStateType>): ChatMessage[] {
  const turns: Turn[] = [...(values.history ?? [])];
  const last = turns.at(-1);
  if (values.status === 'running' && values.question && !(last?.role === 'user' && last.content === values.question)) {
    turns.push({ role: 'user', content: values.question });
  }
  return turns.map((turn, index) => ({ id: `message-${index}`, type: turn.role === 'user' ? 'human' : 'ai', content: turn.content }));
}

/** The `rag` agent for the run runtime. */
export function ragDefinition(agent: RagAgent): AgentDefinition {
  return {
    name: 'rag',
    description:
      'Enterprise RAG: rewrite, decompose, hybrid retrieval, rerank, answerability check, schema-validated answer with citations; refuses when the evidence is insufficient.',
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
    trace: (values) => ragTrace(values as Partial<RagStateType>),
    async forgetThread(threadId) {
      const saver = agent.graph.checkpointer;
      if (saver && typeof saver === 'object') await saver.deleteThread(threadId);
    },
  };
}
