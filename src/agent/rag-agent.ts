import { randomUUID } from 'node:crypto';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Answer } from '../domain/answer.ts';
import type { Principal } from '../domain/index.ts';
import { EvidentError } from '../errors/index.ts';
import type { Evident } from '../evident.ts';
import { openCheckpointer } from './checkpointer.ts';
import { buildRagGraph, ragGraphMermaid, type RagGraph } from './graphs/rag.ts';
import type { RagDeps } from './nodes/rag-deps.ts';
import type { RagStateType, RunError, RunStatus, Step, ToolCallRecord, Turn } from './state.ts';
import { createTableQueryTool } from './tools/table-query.ts';

export interface AskInput {
  question: string;
  principal: Principal;
  /** Continue this thread (its checkpointed history); a new thread when absent. */
  threadId?: string;
  /** Earlier turns to seed the thread with (evaluation). */
  history?: Turn[];
}

/** What one run returns: the answer contract plus the run's trace. */
export interface RagRunResult {
  answer: Answer | null;
  status: RunStatus;
  mode: string;
  thread_id: string;
  run_id: string;
  standalone_question: string;
  sub_questions: string[];
  evidence_ids: string[];
  tool_calls: ToolCallRecord[];
  steps: Step[];
  errors: RunError[];
}

export interface RagAgent {
  readonly graph: RagGraph;
  ask(input: AskInput): Promise<RagRunResult>;
  mermaid(): string;
  close(): void;
}

export interface RagAgentOptions {
  chat?: { id: string; model: BaseChatModel };
  deps?: Partial<Omit<RagDeps, 'search' | 'store' | 'tableQuery' | 'chat'>>;
}

/** The `rag` agent over an Evident instance, checkpointed in its store by thread_id. */
export function openRagAgent(evident: Evident, options: RagAgentOptions = {}): RagAgent {
  const deps: RagDeps = {
    search: evident.search,
    store: evident.store,
    tableQuery: createTableQueryTool({ store: evident.store }),
    topK: evident.retrieval.topK,
    maxEvidence: 8,
    maxCitationRetries: 1,
    maxSchemaRetries: 2,
    historyWindow: 12,
    ...options.deps,
    ...(options.chat ? { chat: options.chat } : {}),
  };
  const checkpointer = openCheckpointer(evident.store);
  const graph = buildRagGraph(deps, { checkpointer: checkpointer.saver });
  return {
    graph,
    async ask(input) {
      const threadId = input.threadId ?? randomUUID();
      if (input.threadId) await assertThreadOwner(graph, threadId, input.principal);
      const runId = randomUUID();
      const state: RagStateType = await graph.invoke(
        {
          question: input.question,
          principal: input.principal,
          thread_id: threadId,
          run_id: runId,
          ...(input.history ? { history: input.history } : {}),
        },
        { configurable: { thread_id: threadId, run_id: runId } },
      );
      return {
        answer: state.answer,
        status: state.status,
        mode: state.mode,
        thread_id: threadId,
        run_id: runId,
        standalone_question: state.standalone_question,
        sub_questions: state.sub_questions,
        evidence_ids: state.evidence.map((item) => item.chunk_id),
        tool_calls: state.tool_calls,
        steps: state.steps,
        errors: state.errors,
      };
    },
    mermaid: () => ragGraphMermaid(graph),
    close: () => checkpointer.close(),
  };
}

/**
 * A thread is its owner's: its checkpoint holds their history and evidence, so another principal may not continue
 * it. The message is the same whatever the thread holds, and says nothing of it.
 */
async function assertThreadOwner(graph: RagGraph, threadId: string, principal: Principal): Promise<void> {
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  const owner = (snapshot.values as Partial<RagStateType> | undefined)?.principal;
  if (owner && owner.id !== principal.id) {
    throw new EvidentError('thread_forbidden', `Thread ${threadId} is not available to ${principal.id}.`, {
      hint: 'Omit --thread to start a new thread, or continue one of your own.',
    });
  }
}
