import { Command } from '@langchain/langgraph';
import type { Principal } from '../domain/index.ts';
import { NotFoundError, ThreadInterruptedError, ValidationError } from '../errors/index.ts';
import type { DocumentStore, PrincipalStore, ThreadRecord } from '../store/store.ts';
import type { PendingAction } from '../domain/approval.ts';
import { currentPrincipal } from './current-principal.ts';
import type { SharedValues } from '../domain/run-state.ts';
import type { Turn } from '../domain/turn.ts';
import type { ApprovalPolicy } from './policy/approval-policy.ts';
import { authorizeDecision, pendingActionsOf } from './policy/authorize-decision.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { ReaderRedaction, WITHHELD_TEXT } from './redact-for-reader.ts';
import { threadNotFound } from './run-access.ts';
import { checkpointIdOf } from './checkpoint-id.ts';
import type { RunAction } from './run-request.ts';

/** What the executor runs: the graph input (or a resume `Command`, or null to replay), from which checkpoint, and the run's question. */
export interface RunInput {
  input: unknown;
  question: string;
  /** Time travel: the run starts from this checkpoint; new checkpoints branch off it and the old ones stay. */
  checkpointId?: string;
  /** The thread's head checkpoint as read here (null: none yet), when this read it: the run's `from_checkpoint_id`. */
  headCheckpointId?: string | null;
  /** A resume: the pending action the decision was authorized for (the audit log records it with its decider). */
  decided?: PendingAction;
}

export interface RunInputContext {
  store: Pick<DocumentStore, 'getChunks'> & Pick<PrincipalStore, 'getUser'>;
  agent: AgentDefinition;
  thread: ThreadRecord;
  principal: Principal;
  runId: string;
  policy: ApprovalPolicy;
}

/**
 * Turns a run action into what the executor runs, with the rules every front end shares: only the owner asks or
 * travels in their thread; a question waits while a decision is pending; a decision is the policy's to allow.
 */
export async function runInputFor(action: RunAction, context: RunInputContext): Promise<RunInput> {
  const { agent, thread, principal, runId } = context;
  const threadId = thread.threadId;
  if (action.kind === 'resume') {
    const snapshot = await agent.graph.getState({ configurable: { thread_id: threadId } });
    const waiting = authorizeDecision({
      snapshot,
      threadId,
      owner: thread.owner,
      principal,
      decision: action.decision,
      policy: context.policy,
      notVisible: () => threadNotFound(threadId),
    });
    // The run goes on from its stored state: what of it the owner may no longer read is withheld before any step reads it.
    const update = await stateForOwner(snapshot.values, context);
    return {
      input: new Command({ resume: action.decision, ...(update ? { update } : {}) }),
      question: `${action.decision.decision} ${waiting.tool}`,
      headCheckpointId: checkpointIdOf(snapshot),
      decided: waiting,
    };
  }
  if (thread.owner !== principal.id) throw threadNotFound(threadId);
  if (action.kind === 'ask') {
    const snapshot = await agent.graph.getState({ configurable: { thread_id: threadId } });
    const pending = pendingActionsOf(snapshot)[0];
    if (pending) throw new ThreadInterruptedError(threadId, pending.tool);
    const start = { question: action.question, history: action.history, principal, threadId, runId };
    const { conversation, stale } = await stateForNewQuestion(snapshot.values, context);
    const fresh = agent.inputFor(start, snapshot.createdAt !== undefined);
    return {
      // What the new question sets wins over the withheld leftovers of the thread's last run.
      input: { ...stale, ...fresh, ...conversation },
      question: action.question,
      headCheckpointId: checkpointIdOf(snapshot),
    };
  }
  return forkInput(action, context);
}

/**
 * The thread's stored state as its owner may read it now, as the fields that change: a run reads its history (and a
 * resumed run its evidence, scratchpad, context), so what rests on a document the owner lost, or that was deleted,
 * is withheld from the run as from any reader. Undefined when nothing changes.
 */
async function stateForOwner(
  values: unknown,
  { store, thread }: RunInputContext,
): Promise<Record<string, unknown> | undefined> {
  const state = (values ?? {}) as Record<string, unknown> & Partial<SharedValues>;
  const owner = await currentPrincipal(store, state.principal ?? { id: thread.owner, groups: [], roles: ['member'] });
  const redaction = new ReaderRedaction(store, owner);
  const redacted = await redaction.apply(state);
  if (redaction.withheld === 0) return undefined;
  const changed = Object.entries(redacted).filter(
    ([key, value]) => key in state && JSON.stringify(value) !== JSON.stringify(state[key]),
  );
  return Object.fromEntries(changed);
}

/**
 * The conversation part of the owner's view of the state: what a new question's run reads of earlier runs — the
 * turns, and the running summary of older ones, which a run starts without when it rests on a chunk the owner may
 * not read now.
 */
async function stateForNewQuestion(
  values: unknown,
  context: RunInputContext,
): Promise<{
  conversation: { history?: Turn[]; history_summary?: string; history_summary_sources?: string[] };
  stale: Record<string, unknown>;
}> {
  const state = values as
    | (Partial<SharedValues> & { history_summary_sources?: string[]; evidence?: unknown[] })
    | undefined;
  // Answer turns, summaries and the last run's evidence record what they rest on: a thread without any has nothing to
  // withhold.
  if (
    !state?.history?.some((turn) => turn.sources?.length) &&
    !state?.history_summary_sources?.length &&
    !state?.evidence?.length
  )
    return { conversation: {}, stale: {} };
  const update = await stateForOwner(values, context);
  if (!update) return { conversation: {}, stale: {} };
  const { history, history_summary, history_summary_sources, ...stale } = update;
  const withheldSummary = history_summary === WITHHELD_TEXT;
  return {
    conversation: {
      ...(history ? { history: history as Turn[] } : {}),
      ...(withheldSummary ? { history_summary: '', history_summary_sources: [] } : {}),
    },
    // The rest of the last run's state (its evidence, citations, answer) stays in the thread until the new run's steps
    // replace it: what of it the owner may no longer read is withheld before the first step, so no event copies it.
    stale,
  };
}

/** A fork asks anew from the end of a run; a replay (no question) re-runs from a checkpoint in the middle of one. */
async function forkInput(action: Extract<RunAction, { kind: 'fork' }>, context: RunInputContext): Promise<RunInput> {
  const { agent, thread, principal, runId } = context;
  const { checkpointId } = action;
  const threadId = thread.threadId;
  const snapshot = await agent.graph.getState({ configurable: { thread_id: threadId, checkpoint_id: checkpointId } });
  // An unknown id reads as an empty snapshot; one of another thread cannot be reached through this thread_id.
  if (!snapshot.createdAt) {
    throw new NotFoundError(
      'checkpoint',
      checkpointId,
      `List the thread's checkpoints with: evident checkpoints ${threadId}`,
    );
  }
  const midRun = snapshot.next.length > 0;
  if (action.question !== undefined) {
    if (midRun) {
      throw new ValidationError(
        `Checkpoint ${checkpointId} is in the middle of a run; a new question forks from the end of one.`,
        {
          hint: 'Pick a checkpoint whose next is empty, or omit the question to replay from this one.',
        },
      );
    }
    const start = { question: action.question, history: [], principal, threadId, runId };
    const { conversation, stale } = await stateForNewQuestion(snapshot.values, context);
    return {
      input: { ...stale, ...agent.inputFor(start, true), ...conversation },
      question: action.question,
      checkpointId,
    };
  }
  if (!midRun) {
    throw new ValidationError(`Checkpoint ${checkpointId} is the end of a run; there is nothing to replay from it.`, {
      hint: 'Give a question to fork a new run from it.',
    });
  }
  const values = (snapshot.values ?? {}) as Partial<SharedValues>;
  return { input: null, question: values.question ?? '', checkpointId };
}
