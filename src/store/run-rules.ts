import {
  NotFoundError,
  publicErrorOf,
  RunEventConflictError,
  RunLeaseLostError,
  RunOrphanedError,
  ThreadAgentMismatchError,
  ThreadBusyError,
  ThreadExistsError,
  ThreadForbiddenError,
  ValidationError,
} from '../errors/index.ts';
import { checkIdentifier } from '../domain/identifier.ts';
import type {
  RunEventRecord,
  RunLease,
  RunRecordStatus,
  RunStart,
  ThreadCreate,
  ThreadRecord,
  ThreadSummary,
} from './ports/run-log.ts';

/**
 * The run log's rules, written once for every backend. An adapter reads what a rule needs inside its own
 * transaction (locking the thread row where its database needs that), asks the rule, and writes: the rules see
 * no SQL, and no adapter holds a rule of its own.
 */

/** A run start needs every field: a blank one would create an ownerless thread or an unlabelled run. */
export function validateRunStart(run: RunStart): void {
  for (const [field, value] of Object.entries(run)) {
    if (!value) throw new ValidationError(`A run needs a non-empty ${field}.`);
  }
  checkIdentifier('thread id', run.threadId);
  checkIdentifier('run id', run.runId);
  validateLease(run.lease, { release: false });
}

/** A lease names its owner and lasts a whole number of milliseconds; only a renewal may release one (0). */
export function validateLease(lease: RunLease, options: { release: boolean }): void {
  if (!lease.owner) throw new ValidationError('A run lease needs a non-empty owner.');
  const least = options.release ? 0 : 1;
  if (!Number.isSafeInteger(lease.ttlMs) || lease.ttlMs < least)
    throw new ValidationError(`A run lease lasts a whole number of milliseconds, at least ${least}.`);
}

/** When a lease taken or renewed at `now` runs out. A lease is expired once the store's clock reaches this. */
export const leaseExpiry = (now: Date, lease: RunLease): Date => new Date(now.getTime() + lease.ttlMs);

/** What a run start must know of its thread, read in the transaction that records the run. */
export interface ThreadForRun {
  owner: string;
  /** The agent the thread is bound to; '' while it has had no run. */
  agent: string;
  /** A run of the thread is `running` under a lease that has not expired. */
  hasLiveRun: boolean;
}

/**
 * The rules a run start must pass on an existing thread, in this order: the thread is the user's (a run can never
 * join someone else's thread); it is bound to this agent or to none (each agent checkpoints its own state shape,
 * so one thread cannot hold two); no run of it is still going (so two processes cannot run one thread at once).
 */
export function checkRunStart(run: Pick<RunStart, 'threadId' | 'user' | 'agent'>, thread: ThreadForRun): void {
  if (thread.owner !== run.user) throw new ThreadForbiddenError(run.threadId, run.user);
  if (thread.agent && thread.agent !== run.agent)
    throw new ThreadAgentMismatchError(run.threadId, thread.agent, run.agent);
  if (thread.hasLiveRun) throw new ThreadBusyError(run.threadId);
}

/**
 * How a run start ends a `running` run of its thread whose lease expired (its process died and no process has
 * claimed it yet): `failed`, with the public error and the `error` and `end` events that close its log after
 * `lastSeq`. The thread is then usable at once, and the orphan can no longer be claimed and run beside the new run.
 */
export function supersededOrphan(
  runId: string,
  lastSeq: number,
): { outcome: { status: RunRecordStatus; error: string }; events: RunEventRecord[] } {
  const shown = publicErrorOf(new RunOrphanedError(runId));
  return {
    outcome: { status: 'failed', error: shown.message },
    events: [
      {
        runId,
        seq: lastSeq + 1,
        event: 'error',
        data: { error: shown.code, message: shown.message, hint: shown.hint },
      },
      endEvent(runId, lastSeq + 2, 'failed'),
    ],
  };
}

/** A run's last event: how it ended, as LangGraph clients read it. */
export const endEvent = (runId: string, seq: number, status: RunRecordStatus): RunEventRecord => ({
  runId,
  seq,
  event: 'end',
  data: { status },
});

/** A write that named a lease owner proceeds only while that owner holds the run. */
export function checkLeaseHeld(runId: string, owner: string | undefined, holder: string | null | undefined): void {
  if (owner !== undefined && holder !== owner) throw new RunLeaseLostError(runId, owner);
}

/** How many orphaned runs `listOrphanedRuns` returns when the caller gives no limit. */
export const DEFAULT_ORPHAN_LIMIT = 100;

/** The run a finish (or any change) applies to; an unknown run is `not_found`. */
export function requireRun<T>(runId: string, run: T | undefined): T {
  if (run === undefined) throw new NotFoundError('run', runId);
  return run;
}

/** How long a run took, from its stored start to `finished` (never negative, whatever the clocks did). */
export const runDuration = (startedAt: Date, finished: Date): number =>
  Math.max(0, finished.getTime() - startedAt.getTime());

export function validateThreadCreate(thread: ThreadCreate): void {
  if (!thread.threadId || !thread.owner) throw new ValidationError('A thread needs a non-empty id and owner.');
  checkIdentifier('thread id', thread.threadId);
}

/** A created thread's id was free; the refusal reads the same whoever owns the taken one. */
export function checkThreadCreated(thread: ThreadCreate, inserted: boolean): void {
  if (!inserted) throw new ThreadExistsError(thread.threadId);
}

/** Why an append of run events failed, as the adapter reads its database's error. */
export type RunEventsFailure =
  | { kind: 'seq_taken'; taken?: { runId: string; seq: number | string } }
  | { kind: 'unknown_run'; runId: string };

/**
 * An append that hit a sequence number the run already has is a conflict (two writers of one run's log are a bug,
 * never merged silently); one for a run the store does not have is `not_found`.
 */
export function runEventsRefused(failure: RunEventsFailure, cause: unknown): Error {
  return failure.kind === 'seq_taken'
    ? new RunEventConflictError(failure.taken, cause)
    : new NotFoundError('run', failure.runId);
}

/** How many events `listRunEvents` returns when the caller gives no limit. */
export const DEFAULT_RUN_EVENT_LIMIT = 1000;

/** A thread's agent column holds '' until its first run binds it (the column is NOT NULL); the port says null. */
export const threadAgent = (column: string): string | null => column || null;

/** A thread as a list shows it: its latest run's question and status, and how many runs it has had. */
export function toThreadSummary(
  thread: ThreadRecord,
  latest: { question: string | null; status: RunRecordStatus | null },
  runCount: number,
): ThreadSummary {
  const { owner: _owner, ...rest } = thread;
  return {
    ...rest,
    lastQuestion: latest.question ?? '',
    ...(latest.status ? { lastStatus: latest.status } : {}),
    runCount,
  };
}
