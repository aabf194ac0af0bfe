import type { RunWebhookWrite } from './run-webhook-log.ts';

/**
 * A run's state in the store: `pending` while queued behind its thread's runs; `running` until finished;
 * `interrupted` when it waits for an approval; `cancelled` when a client (or a newer run) stopped it.
 */
export type RunRecordStatus = 'pending' | 'running' | 'answered' | 'refused' | 'failed' | 'interrupted' | 'cancelled';

export const isRunFinished = (status: RunRecordStatus): boolean => status !== 'running' && status !== 'pending';

/**
 * A process's hold on a running run (ARCHITECTURE §6): the process executing a run renews its lease on a timer; a
 * `running` run whose lease expired is orphaned (its process died) and is claimed by another process, which resumes
 * it from its last checkpoint or ends it as failed. Expiry is measured on the store's clock (the database's on
 * PostgreSQL), so processes whose clocks disagree still agree on it.
 */
export interface RunLease {
  /** Who holds it: one id per run manager (host, process, random part). */
  owner: string;
  /** How long the lease lasts from now unless renewed; 0 releases it (the run is orphaned at once). */
  ttlMs: number;
}

/** What starting a run records. A run on a new thread creates the thread, owned by `user`. */
export interface RunStart {
  runId: string;
  threadId: string;
  /** Which agent graph ran (`rag`, …). */
  agent: string;
  user: string;
  question: string;
  /** The starting process's lease on the run, taken atomically with the insert. */
  lease: RunLease;
  /** The assistant the run applies (its id, or the agent's name for a system assistant) and its version. */
  assistantId?: string;
  assistantVersion?: number;
  /** What the run asked of a busy thread (`reject` unless given). */
  multitaskStrategy?: MultitaskStrategy;
  /** The webhook the run names, recorded with it (`run_webhooks`), delivered once it has ended. */
  webhook?: RunWebhookWrite;
}

export interface RunRecord extends Omit<RunStart, 'lease' | 'multitaskStrategy' | 'webhook'> {
  status: RunRecordStatus;
  /** What the run asked of a busy thread; the adapters always say (`reject` for a run from before double-texting). */
  multitaskStrategy?: MultitaskStrategy;
  /** 1 for the first execution; one more each time a process claims the run after its process died. */
  attempt: number;
  /** Who holds the run's lease and until when; absent once no process holds it (a run failed as orphaned). */
  lease?: { owner: string; expiresAt: string };
  /** A client asked to cancel the run; the process executing it stops it (it may be another process). */
  cancelRequested?: true;
  error?: string;
  startedAt: string;
  finishedAt?: string;
  durationMs?: number;
}

/** How a run ended, as `finishRun` records it. */
export interface RunOutcome {
  status: RunRecordStatus;
  error?: string;
  /** Only while this process holds the run's lease: an outcome from a process that lost it is `run_lease_lost`. */
  leaseOwner?: string;
  /**
   * Records the run's `end` event (`{status}`) with this sequence number in the same transaction: a process that dies
   * between the two can leave neither a finished run without its `end` nor an `end` of a running run.
   */
  endSeq?: number;
}

/** A thread: one owner, and the agent its first run bound it to (null before any run). */
export interface ThreadRecord {
  threadId: string;
  agent: string | null;
  owner: string;
  /** The client's own key/values (JSON), kept verbatim. */
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** What creating an empty thread takes. */
export interface ThreadCreate {
  threadId: string;
  owner: string;
  metadata?: Record<string, unknown>;
  /** Bound to this agent from the start (a copy of a thread); unbound (the first run binds it) when absent. */
  agent?: string;
}

/** One of a user's threads, as a list shows it. */
export interface ThreadSummary extends Omit<ThreadRecord, 'owner'> {
  /** The question of the thread's latest run ('' before any run). */
  lastQuestion: string;
  /** The status of the thread's latest run; absent before any run. */
  lastStatus?: RunRecordStatus;
  runCount: number;
}

/** One event of a run's stream, as stored: `seq` counts from 1 within the run and is the SSE event id. */
export interface RunEventRecord {
  runId: string;
  seq: number;
  event: string;
  data: unknown;
}

/**
 * The run log: threads, the runs on them, each run's numbered event stream, and cancellation requests. It is what
 * lets several processes sharing one store stream, resume and cancel each other's runs. The rules it enforces
 * (ownership, agent binding, one running run per thread) are written once, in `run-rules.ts`.
 */
export interface RunLog extends RunQueueLog {
  /**
   * Records a run as `running`; a new thread is created owned by `run.user`. A thread owned by another user is
   * refused with `ThreadForbiddenError`, so a run can never join someone else's thread. A thread with a run still
   * `running` under a live lease is refused with `thread_busy`, atomically with the insert: two processes sharing the
   * store cannot run one thread at once (nor both resume one approval). A `running` run of the thread whose lease
   * expired does not block it: it is ended `failed` (`run_orphaned`, with its `error` and `end` events) in the same
   * transaction, so the thread is usable as soon as the lease runs out and never runs twice.
   */
  startRun(run: RunStart): Promise<RunRecord>;
  /**
   * Settles a run's status, finish time and duration. Fails with `not_found` for an unknown run, and with
   * `run_lease_lost` when `leaseOwner` is given and no longer holds the running run.
   */
  finishRun(runId: string, outcome: RunOutcome): Promise<RunRecord>;
  /** The thread's runs, oldest first; empty unless `user` owns the thread. */
  listRuns(threadId: string, user: string): Promise<RunRecord[]>;
  /** The threads `user` owns, most recently updated first. */
  listThreads(user: string): Promise<ThreadSummary[]>;
  /** Creates an empty thread owned by `owner`; an existing id fails with `thread_exists`. */
  createThread(thread: ThreadCreate): Promise<ThreadRecord>;
  /** A thread whoever owns it: callers decide who may see it (the owner, or an admin approving its action). */
  getThread(threadId: string): Promise<ThreadRecord | undefined>;
  /**
   * Replaces the metadata of the owner's thread (the caller merged it) and touches its `updated_at`. Undefined when
   * `owner` has no such thread.
   */
  setThreadMetadata(
    threadId: string,
    owner: string,
    metadata: Record<string, unknown>,
  ): Promise<ThreadRecord | undefined>;
  /** Deletes the owner's thread with its runs and their events. False when `owner` has no such thread. */
  deleteThread(threadId: string, owner: string): Promise<boolean>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /**
   * Flags a running run for cancellation, for whichever process executes it (it polls the flag). True when the run
   * was running; false when it has ended or does not exist.
   */
  requestRunCancel(runId: string): Promise<boolean>;
  /**
   * Appends events to a run's log with the given sequence numbers, in one transaction. A sequence number the run
   * already has fails (`run_event_conflict`): two writers of one run's log are a bug, never merged silently. With
   * `leaseOwner`, the append is refused (`run_lease_lost`) unless that owner holds the run's lease: after another
   * process claimed the run, the one that lost it cannot write into its log.
   */
  appendRunEvents(events: readonly RunEventRecord[], leaseOwner?: string): Promise<void>;
  /** The run's events after `afterSeq`, in order (at most `limit`, 1000 unless given). */
  listRunEvents(runId: string, afterSeq: number, limit?: number): Promise<RunEventRecord[]>;
  /** The sequence number of the run's last stored event; 0 when it has none. */
  lastRunEventSeq(runId: string): Promise<number>;
  /**
   * Extends the lease of a running run its owner still holds to `lease.ttlMs` from now (0 releases it). False when
   * the run has ended, is unknown, or another process holds it: the caller has lost the run and must stop writing.
   */
  renewRunLease(runId: string, lease: RunLease): Promise<boolean>;
  /** Running runs whose lease has expired (their process died), oldest first, at most `limit` (100 unless given). */
  listOrphanedRuns(limit?: number): Promise<RunRecord[]>;
  /**
   * Takes over an orphaned run, atomically: the lease passes to `lease.owner` and `attempt` counts one more. Only one
   * of several processes claiming the same run gets it; undefined for every other, and for a run that is not
   * running, holds a live lease, or does not exist.
   */
  claimOrphanedRun(runId: string, lease: RunLease): Promise<RunRecord | undefined>;
}

/**
 * What a thread does with a run asked for while it is busy (LangGraph's `multitask_strategy`): `reject` refuses it;
 * `enqueue` records it `pending` behind the thread's runs; `interrupt` stops the running run (its checkpoints kept)
 * and starts the new one; `rollback` stops it and deletes it with its checkpoints, then starts the new one.
 */
export const MULTITASK_STRATEGIES = ['reject', 'enqueue', 'interrupt', 'rollback'] as const;
export type MultitaskStrategy = (typeof MULTITASK_STRATEGIES)[number];

/** What enqueueing a run records: a run start without a lease, and the request it starts with once its turn comes. */
export interface RunEnqueue extends Omit<RunStart, 'lease' | 'multitaskStrategy'> {
  /** The run engine's request (JSON), read back when the run is claimed. */
  request: unknown;
}

/** A queued run a process took: its record (now `running`, under the claimer's lease) and its stored request. */
export interface ClaimedRun {
  run: RunRecord;
  request: unknown;
}

/**
 * The run queue of the run log (double-texting): runs `pending` on a busy thread, started first in, first out, by
 * whichever process sharing the store sees the thread free. A pending run holds no lease; it starts only once no run
 * of its thread is `running` (an orphan is first resumed or ended by recovery) and no earlier run of it is pending.
 */
export interface RunQueueLog {
  /**
   * Records the run as `pending` behind the thread's running (under a live lease) or pending runs, atomically with
   * that check. Undefined, recording nothing, when the thread does not exist or has no such run: the caller starts
   * the run at once (`startRun`). The thread must be the user's and bound to this agent or to none, as for a start.
   */
  enqueueRun(run: RunEnqueue): Promise<RunRecord | undefined>;
  /** Pending runs whose turn it is (first pending of their thread, no run of it running), oldest first, at most `limit` (100). */
  listStartableRuns(limit?: number): Promise<RunRecord[]>;
  /**
   * Starts a pending run whose turn it is, atomically: it becomes `running` under `lease`. Of several processes
   * claiming one run, one gets it; undefined for the others, and for a run that is not pending or not first in line.
   */
  claimPendingRun(runId: string, lease: RunLease): Promise<ClaimedRun | undefined>;
  /**
   * Ends a pending run `cancelled` (with its `error` and `end` events, so its readers stop). Undefined when the run
   * is not pending (it started, ended, or does not exist).
   */
  cancelPendingRun(runId: string): Promise<RunRecord | undefined>;
  /** Deletes a run that is not running, with its events (a rollback). False when it is running or does not exist. */
  deleteRun(runId: string): Promise<boolean>;
}
