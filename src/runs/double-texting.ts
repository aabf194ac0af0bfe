import { z } from 'zod';
import { approvalDecisionSchema } from '../domain/approval.ts';
import { isAdmin, type Principal } from '../domain/index.ts';
import { ThreadBusyError, ValidationError } from '../errors/index.ts';
import { AUDIT_SURFACES, type RunLog, type RunRecord, type ThreadRecord } from '../store/store.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { threadNotFound } from './run-access.ts';
import type { RunAction, RunRequest } from './run-request.ts';

/**
 * Double-texting (LangGraph's `multitask_strategy`): what a run asked for on a busy thread does. The queue itself is
 * the store's (`enqueueRun`, `claimPendingRun`) and `RunQueue` starts its runs; this holds the rules both ends share:
 * who may run on the thread, what a queued request keeps until its turn, and how `interrupt` and `rollback` stop the
 * thread's runs.
 */

/**
 * Whether the principal may start this run on the thread, checked before anything of the thread is stopped or queued:
 * a question or time travel is the owner's; a decision may come from an admin too (the approval policy then decides,
 * as for any decision). Anyone else is told what a missing thread gets.
 */
export function assertMayRunOn(thread: ThreadRecord, request: Pick<RunRequest, 'principal' | 'action'>): void {
  const { principal, action } = request;
  const allowed = thread.owner === principal.id || (action.kind === 'resume' && isAdmin(principal));
  if (!allowed) throw threadNotFound(thread.threadId);
}

/** The record's question while a run waits: the question, or what the decision or replay will do. */
export function queuedQuestion(action: RunAction): string {
  if (action.kind === 'ask') return action.question;
  if (action.kind === 'resume') return `${action.decision.decision} the pending action`;
  return action.question ?? `replay from checkpoint ${action.checkpointId}`;
}

const turnSchema = z.looseObject({ role: z.enum(['user', 'assistant']), content: z.string() });

/** A queued run's request as stored: who asked (their access is read again when the run starts), what, and through what. */
const queuedRequestSchema = z.object({
  principal: z.object({
    id: z.string().min(1),
    groups: z.array(z.string()),
    roles: z.array(z.enum(['admin', 'member'])),
  }),
  action: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('ask'), question: z.string().min(1), history: z.array(turnSchema) }),
    z.object({ kind: z.literal('resume'), decision: approvalDecisionSchema }),
    z.object({ kind: z.literal('fork'), checkpointId: z.string().min(1), question: z.string().min(1).optional() }),
  ]),
  surface: z.enum(AUDIT_SURFACES).optional(),
  /** The assistant the run names (resolved again, as the asker may read it then) and the version asked for. */
  assistant: z.string().min(1).max(128).optional(),
  assistantVersion: z.number().int().positive().optional(),
  streamModes: z.array(z.string().max(32)).max(16).optional(),
});

export type QueuedRequest = Pick<
  RunRequest,
  'principal' | 'action' | 'surface' | 'assistantVersion' | 'streamModes'
> & {
  assistant?: string;
};

/** What a queued run keeps of its request: the assistant by id and version, never as resolved (it is resolved again). */
export const queuedRequestOf = (request: RunRequest): QueuedRequest => ({
  principal: { id: request.principal.id, groups: [...request.principal.groups], roles: [...request.principal.roles] },
  action: request.action,
  ...(request.surface ? { surface: request.surface } : {}),
  ...(request.assistant
    ? { assistant: request.assistant.assistantId, assistantVersion: request.assistant.version }
    : {}),
  ...(request.streamModes ? { streamModes: [...request.streamModes] } : {}),
});

/** A stored request read back; one that does not parse fails its run (never started with a guessed request). */
export function parseQueuedRequest(stored: unknown): QueuedRequest {
  const parsed = queuedRequestSchema.safeParse(stored);
  if (!parsed.success)
    throw new ValidationError('The queued run has no readable request.', {
      hint: 'Ask again on the thread; the queued run cannot start.',
    });
  const { principal, action, surface, assistant, assistantVersion, streamModes } = parsed.data;
  return {
    principal: principal as Principal,
    action: action as RunAction,
    ...(surface ? { surface } : {}),
    ...(assistant ? { assistant } : {}),
    ...(assistantVersion ? { assistantVersion } : {}),
    ...(streamModes ? { streamModes } : {}),
  };
}

export interface InflightStop {
  store: Pick<RunLog, 'listRuns' | 'cancelPendingRun' | 'deleteRun' | 'getRun' | 'listRunEvents'>;
  /** The thread's agent (the one its runs ran): what a rollback deletes the checkpoints of. */
  agent: AgentDefinition | undefined;
  /** The run manager's cancel: the caller's right to cancel each run is checked there, and a running run is awaited. */
  cancel(threadId: string, runId: string, principal: Principal): Promise<boolean>;
}

/**
 * `interrupt` and `rollback`: the thread's queued runs are cancelled first (so none starts in between), then its
 * running run is stopped and awaited (`cancelled`; LangGraph clients read `interrupted`). With `interrupt` its
 * checkpoints stay and the next run goes on from the thread's latest state; with `rollback` the runs are deleted, the
 * running one with the checkpoints its thread took since it started, so the thread is as it was before them. A run
 * that does not stop in time leaves the thread busy (`thread_busy`).
 */
export async function stopInflight(
  deps: InflightStop,
  thread: ThreadRecord,
  strategy: 'interrupt' | 'rollback',
  principal: Principal,
): Promise<void> {
  const { store } = deps;
  const inflight = (await store.listRuns(thread.threadId, thread.owner)).filter(
    (run) => run.status === 'pending' || run.status === 'running',
  );
  if (strategy === 'rollback' && inflight.length > 0) rollbackAvailable(deps);
  // Queued runs first, in the order they would have started: once none waits, stopping the running one starts none.
  const ordered = [
    ...inflight.filter((r) => r.status === 'pending'),
    ...inflight.filter((r) => r.status === 'running'),
  ];
  for (const run of ordered) {
    if (strategy === 'rollback') await rollbackRun(deps, thread, run, principal);
    else if (!(run.status === 'pending' && (await store.cancelPendingRun(run.runId)))) {
      await deps.cancel(thread.threadId, run.runId, principal);
      await stopped(store, thread, run.runId);
    }
  }
}

/**
 * Rolls one run back (a rollback strategy, or LangGraph's cancel with `action=rollback`): a pending run is cancelled
 * and deleted; a running one is stopped, then deleted with the checkpoints its thread took since it started. False
 * when the run had already ended (a finished run is never rolled back: later runs rest on its checkpoints).
 */
export async function rollbackRun(
  deps: InflightStop,
  thread: ThreadRecord,
  run: RunRecord,
  principal: Principal,
): Promise<boolean> {
  const { store } = deps;
  const forget = rollbackAvailable(deps);
  if (run.status === 'pending' && (await store.cancelPendingRun(run.runId))) {
    await store.deleteRun(run.runId);
    return true;
  }
  if (!(await deps.cancel(thread.threadId, run.runId, principal))) return false;
  await stopped(store, thread, run.runId);
  const from = await startedFrom(store, run.runId);
  // No first event: the run stopped before its graph started, so it took no checkpoint.
  if (from !== undefined) await forget(thread.threadId, from);
  await store.deleteRun(run.runId);
  return true;
}

/** The thread agent's checkpoint deletion, or the refusal of a rollback where its checkpointer has none. */
function rollbackAvailable(deps: InflightStop): NonNullable<AgentDefinition['forgetCheckpointsAfter']> {
  const forget = deps.agent?.forgetCheckpointsAfter;
  if (!forget)
    throw new ValidationError(
      "This store's checkpointer cannot delete a run's checkpoints, so rollback is not offered.",
      {
        hint: 'Use "interrupt" (the stopped run\'s checkpoints stay) or "enqueue".',
      },
    );
  return forget;
}

/** A stopped run has ended; one still running (its process did not stop it in time) leaves the thread busy. */
async function stopped(store: InflightStop['store'], thread: ThreadRecord, runId: string): Promise<void> {
  const ended = await store.getRun(runId);
  if (ended?.status === 'running' || ended?.status === 'pending') throw new ThreadBusyError(thread.threadId);
}

/**
 * The thread's head as the run found it (its first event, `metadata`, names it: null on a thread with no state);
 * undefined when the run has no such event.
 */
async function startedFrom(store: Pick<RunLog, 'listRunEvents'>, runId: string): Promise<string | null | undefined> {
  const [first] = await store.listRunEvents(runId, 0, 1);
  if (first?.event !== 'metadata') return undefined;
  const from = (first.data as { from_checkpoint_id?: unknown }).from_checkpoint_id;
  return typeof from === 'string' ? from : null;
}
