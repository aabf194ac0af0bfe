import { randomUUID } from 'node:crypto';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Answer } from '../domain/answer.ts';
import type { Principal } from '../domain/index.ts';
import { NotFoundError, ThreadForbiddenError, ValidationError } from '../errors/index.ts';
import type { Evident } from '../evident.ts';
import type { RunRecord, ThreadSummary } from '../store/store.ts';
import { listCheckpointInfo, type CheckpointInfo } from './runs/checkpoint-history.ts';
import { pendingActionOf, type PendingAction } from './core/approval.ts';
import { openCheckpointer } from './checkpointer.ts';
import { buildRagGraph, ragGraphMermaid, type RagGraph } from './rag/rag-graph.ts';
import type { RagDeps } from './rag/rag-deps.ts';
import { resumeApproval, type ApproveInput } from './resume-approval.ts';
import { recordedRun } from './run-recording.ts';
import type { MemoryContext, RagStateType, RunError, RunStatus, Step, ToolCallRecord, Turn } from './core/state.ts';
import type { StepEvent } from './core/step-event.ts';
import { streamRun } from './stream-run.ts';
import { createTableQueryTool } from './tools/table-query.ts';

export interface AskInput {
  question: string;
  principal: Principal;
  /** Continue this thread (its checkpointed history); a new thread when absent. */
  threadId?: string;
  /** Earlier turns to seed the thread with (evaluation). */
  history?: Turn[];
  /** Called as each node completes, while the run goes on (LangGraph's `custom` stream). */
  onStep?: (event: StepEvent) => void;
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
  /** The asking user's long-term memories this run loaded (context, not citations). */
  memories: MemoryContext[];
  /** With status `interrupted`: the side effect waiting for `approve`. */
  pending_action?: PendingAction;
}

/** A new run from an earlier checkpoint of one of the principal's threads. */
export interface ForkInput {
  threadId: string;
  checkpointId: string;
  principal: Principal;
  /**
   * Ask this on a new branch from the checkpoint, which must be the end of a run. Without it the run is replayed
   * from the checkpoint, which must be mid-run (its `next` is not empty).
   */
  question?: string;
  onStep?: (event: StepEvent) => void;
}

export interface RagAgent {
  readonly graph: RagGraph;
  ask(input: AskInput): Promise<RagRunResult>;
  /** Decides on the action an interrupted run waits for (approve / edit / reject) and finishes that run. */
  approve(input: ApproveInput): Promise<RagRunResult>;
  /** The principal's threads, most recently updated first. */
  threads(principal: Principal): Promise<ThreadSummary[]>;
  /** A thread's runs with status and timings, oldest first; only its owner may list them. */
  runs(threadId: string, principal: Principal): Promise<RunRecord[]>;
  /** A thread's checkpoints, oldest first, every branch included; only its owner may list them. */
  checkpoints(threadId: string, principal: Principal): Promise<CheckpointInfo[]>;
  fork(input: ForkInput): Promise<RagRunResult>;
  mermaid(): string;
  close(): void;
}

export interface RagAgentOptions {
  chat?: { id: string; model: BaseChatModel };
  deps?: Partial<Omit<RagDeps, 'search' | 'store' | 'embedder' | 'tableQuery' | 'chat'>>;
}

/** rag's node dependencies over an Evident instance, with the default bounds (the other agents start from them too). */
export function defaultRagDeps(evident: Evident): Omit<RagDeps, 'chat'> {
  return {
    search: evident.search,
    store: evident.store,
    embedder: evident.embedder,
    tableQuery: createTableQueryTool({ store: evident.store }),
    topK: evident.retrieval.topK,
    maxEvidence: 8,
    maxCitationRetries: 1,
    maxSchemaRetries: 2,
    historyWindow: 12,
    memoryLimit: 3,
    memoryFloor: 0.35,
  };
}

/** The `rag` agent over an Evident instance, checkpointed in its store by thread_id. */
export function openRagAgent(evident: Evident, options: RagAgentOptions = {}): RagAgent {
  const deps: RagDeps = {
    ...defaultRagDeps(evident),
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
      const start = { runId, threadId, agent: 'rag', user: input.principal.id, question: input.question };
      const state: RagStateType = await recordedRun(evident.store, graph, start, () =>
        streamRun(
          graph,
          {
            question: input.question,
            principal: input.principal,
            thread_id: threadId,
            run_id: runId,
            ...(input.history ? { history: input.history } : {}),
          },
          { thread_id: threadId, run_id: runId },
          input.onStep ?? ignoreStep,
        ),
      );
      return runResult(state, threadId, runId);
    },
    threads: (principal) => evident.store.listThreads(principal.id),
    async runs(threadId, principal) {
      await assertThreadOwner(graph, threadId, principal);
      return evident.store.listRuns(threadId, principal.id);
    },
    async checkpoints(threadId, principal) {
      await assertThreadOwner(graph, threadId, principal);
      return listCheckpointInfo(graph, threadId);
    },
    async fork(input) {
      const { threadId, checkpointId, principal } = input;
      await assertThreadOwner(graph, threadId, principal);
      const config = { configurable: { thread_id: threadId, checkpoint_id: checkpointId } };
      const snapshot = await graph.getState(config);
      const values = snapshot.values as Partial<RagStateType> | undefined;
      // An unknown id reads as an empty snapshot; one of another thread cannot be reached through this thread_id.
      if (!snapshot.createdAt || values?.principal?.id !== principal.id) {
        throw new NotFoundError('checkpoint', checkpointId, `List the thread's checkpoints with: evident checkpoints ${threadId}`);
      }
      const midRun = snapshot.next.length > 0;
      if (input.question !== undefined && midRun) {
        throw new ValidationError(`Checkpoint ${checkpointId} is in the middle of a run; a new question forks from the end of one.`, {
          hint: 'Pick a checkpoint whose next is empty, or omit the question to replay from this one.',
        });
      }
      if (input.question === undefined && !midRun) {
        throw new ValidationError(`Checkpoint ${checkpointId} is the end of a run; there is nothing to replay from it.`, {
          hint: 'Give a question to fork a new run from it.',
        });
      }
      const runId = randomUUID();
      const question = input.question ?? values.question ?? '';
      const start = { runId, threadId, agent: 'rag', user: principal.id, question };
      // Invoking with a past checkpoint's config runs from there: new checkpoints branch off it, the old ones stay.
      const runConfig = { thread_id: threadId, checkpoint_id: checkpointId, run_id: runId };
      const onStep = input.onStep ?? ignoreStep;
      const state: RagStateType = await recordedRun(evident.store, graph, start, () =>
        input.question === undefined
          ? streamRun(graph, null, runConfig, onStep)
          : streamRun(graph, { question: input.question, principal, thread_id: threadId, run_id: runId }, runConfig, onStep),
      );
      return runResult(state, threadId, runId);
    },
    async approve(input) {
      const { state, runId } = await resumeApproval(graph, evident.config.approvals, input);
      const result = runResult(state, input.threadId, runId);
      // The run was recorded as interrupted; it ends with the approval.
      const error = result.errors[0];
      await evident.store.finishRun(runId, { status: result.status, ...(error ? { error: `${error.message} (${error.code})` } : {}) });
      return result;
    },
    mermaid: () => ragGraphMermaid(graph),
    close: () => checkpointer.close(),
  };
}

const ignoreStep = (): void => {};

function runResult(state: RagStateType, threadId: string, runId: string): RagRunResult {
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
    memories: state.memories,
    ...interruption(state),
  };
}

/**
 * A thread is its owner's: its checkpoint holds their history and evidence, so another principal may not continue
 * it. The message is the same whatever the thread holds, and says nothing of it.
 */
async function assertThreadOwner(graph: RagGraph, threadId: string, principal: Principal): Promise<void> {
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  const owner = (snapshot.values as Partial<RagStateType> | undefined)?.principal;
  if (owner && owner.id !== principal.id) throw new ThreadForbiddenError(threadId, principal.id);
}

/** A run that stopped at an `interrupt()` is `interrupted`, with the action it waits for. */
function interruption(state: RagStateType): { status: 'interrupted'; pending_action: PendingAction } | Record<string, never> {
  const pending = pendingActionOf(state);
  return pending ? { status: 'interrupted', pending_action: pending } : {};
}
