import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { deletesRunCheckpoints, type RunCheckpointDeletion, type RunRecordStatus } from '../store/store.ts';
import type { ChatMessage } from '../domain/chat-message.ts';
import type { Turn } from '../domain/turn.ts';
import type { AgentDefinition, AgentGraph } from './agent-definition.ts';
import { copyCheckpoints } from './copy-checkpoints.ts';

/**
 * The fields every agent's state shares (ARCHITECTURE §1): the question, the thread's conversation, the principal
 * and the run's status. Input, view and outcome are defined on them alone, so they are the same for every agent.
 */
interface SharedValues {
  question?: string;
  history?: Turn[];
  status?: string;
}

/**
 * The thread's conversation as chat messages: its history, plus the question of a run still under way (each agent's
 * finalize appends it to the history only when the run ends).
 */
export function conversationOf(values: SharedValues): ChatMessage[] {
  const turns: Turn[] = [...(values.history ?? [])];
  const last = turns.at(-1);
  if (values.status === 'running' && values.question && !(last?.role === 'user' && last.content === values.question)) {
    turns.push({ role: 'user', content: values.question });
  }
  return turns.map((turn, index) => ({
    id: `message-${index}`,
    type: turn.role === 'user' ? 'human' : 'ai',
    content: turn.content,
    ...(turn.citations ? { citations: turn.citations, evidence: turn.cited ?? [] } : {}),
  }));
}

/**
 * The conversation of a state, the same array again while its history (the same array: a step that leaves it alone
 * passes it on), question and status are: a run's state is viewed at every step, and what did not change is then
 * recognised by identity down the line (values deltas, redaction, the stream's JSON).
 */
const conversations = new WeakMap<
  Turn[],
  { question: string | undefined; status: string | undefined; messages: ChatMessage[] }
>();
function conversationView(values: SharedValues): ChatMessage[] {
  const history = values.history;
  if (!history) return conversationOf(values);
  const kept = conversations.get(history);
  if (kept && kept.question === values.question && kept.status === values.status) return kept.messages;
  const messages = conversationOf(values);
  conversations.set(history, { question: values.question, status: values.status, messages });
  return messages;
}

export interface AgentSpec {
  name: string;
  description: string;
  /** The compiled, checkpointed graph. Its overloaded generics are wider than the structural port; the methods are the same. */
  graph: { checkpointer?: unknown };
  trace?: AgentDefinition['trace'];
  /** Whether a step calls a chat model, so that a run can stream `messages` (default true). */
  streamsMessages?: boolean;
}

/** An agent for the run runtime, from its name, description and compiled graph. */
export function defineAgent(spec: AgentSpec): AgentDefinition {
  return {
    name: spec.name,
    description: spec.description,
    graph: spec.graph as unknown as AgentGraph,
    streamsMessages: spec.streamsMessages ?? true,
    inputFor(start, threadHasState) {
      return {
        question: start.question,
        principal: start.principal,
        thread_id: start.threadId,
        run_id: start.runId,
        ...(!threadHasState && start.history.length > 0 ? { history: start.history } : {}),
      };
    },
    view: (values) => ({ ...values, messages: conversationView(values as SharedValues) }),
    outcome(values): RunRecordStatus {
      const status = (values as SharedValues).status;
      return status === 'answered' || status === 'refused' ? status : 'failed';
    },
    ...(spec.trace ? { trace: spec.trace } : {}),
    async forgetThread(threadId) {
      const saver = spec.graph.checkpointer;
      if (saver && typeof saver === 'object') await (saver as BaseCheckpointSaver).deleteThread(threadId);
    },
    ...(spec.graph.checkpointer && typeof spec.graph.checkpointer === 'object'
      ? {
          copyCheckpoints: (from: string, to: string) =>
            copyCheckpoints(spec.graph.checkpointer as BaseCheckpointSaver, from, to),
        }
      : {}),
    ...(deletesRunCheckpoints(spec.graph.checkpointer)
      ? {
          forgetCheckpointsAfter: async (threadId: string, after: string | null) => {
            await (spec.graph.checkpointer as RunCheckpointDeletion).deleteCheckpointsAfter(threadId, after);
          },
        }
      : {}),
  };
}
