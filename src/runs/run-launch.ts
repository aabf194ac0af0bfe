import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import type { Logger } from '../logging/logger.ts';
import type { RunRecord } from '../store/store.ts';
import type { AgentDefinition } from './agent-definition.ts';
import type { RunAuditTrail, FinalState } from './run-audit-trail.ts';
import type { RunEventFeed } from './run-event-feed.ts';
import type { RunEventWriter } from './run-event-writer.ts';
import { executeRun, type ExecuteRunInput } from './run-executor.ts';
import type { RunLeases } from './run-lease.ts';
import type { RunWebhooks } from './webhooks/run-webhooks.ts';

/** A run executing in this process. */
export interface ActiveRun {
  threadId: string;
  controller: AbortController;
  done: Promise<RunRecord>;
  /** Claimed from a process that died: on close it is handed over, not cancelled (nobody here asked for it). */
  recovered: boolean;
}

/** What launching a claimed orphan adds to a run start: where its log goes on, or the error it ends with. */
export interface Recovery {
  afterSeq: number;
  failWith?: Error;
}

/** Where a launched execution starts: a checkpoint (time travel), the head its start read, or a recovered log. */
export interface LaunchFrom {
  /** The stream modes the run's creator asked for (the detail ones are recorded; a recovered run reads its log). */
  streamModes?: readonly string[] | undefined;
  checkpointId?: string;
  headCheckpointId?: string | null;
  recovery?: Recovery;
}

/** What an execution here is tied to: the run manager's store, event log, leases, webhooks and audit trail. */
export interface RunLaunchDeps {
  store: ExecuteRunInput['store'];
  feed: RunEventFeed;
  writer: RunEventWriter;
  leases: RunLeases;
  webhooks: RunWebhooks;
  trail: RunAuditTrail;
  logger: Logger;
  /** How often the run's stored record is re-read for a cancel requested through another process. */
  pollMs: number;
  /** The run's execution here is over (its end is stored, or it could not be): its thread is free. */
  executionEnded(run: RunRecord): void;
}

/**
 * Executes a recorded run in this process: holds its lease, watches for a cancel requested elsewhere, stores its
 * events, then sends its webhook and writes its audit record. Resolves `done` with the ended run.
 */
export function launchRun(
  deps: RunLaunchDeps,
  agent: AgentDefinition,
  run: RunRecord,
  input: unknown,
  from: LaunchFrom,
): ActiveRun {
  const { checkpointId, headCheckpointId, recovery, streamModes } = from;
  const controller = new AbortController();
  deps.feed.open(run.runId, recovery?.afterSeq ?? 0);
  // The heartbeat: while the run executes here, its lease is renewed; once another process holds it, this one stops.
  const stopHeartbeat = deps.leases.hold(run.runId, () => controller.abort('lease_lost'));
  // A cancel requested through another process (another server on the same store) reaches this one as a flag.
  const cancelWatch = setInterval(() => {
    deps.store.getRun(run.runId).then(
      (current) => current?.cancelRequested && controller.abort(),
      () => undefined,
    );
  }, deps.pollMs);
  let final: FinalState;
  let executing = true;
  const endExecution = () => {
    if (!executing) return;
    executing = false;
    clearInterval(cancelWatch);
    stopHeartbeat();
    deps.executionEnded(run);
  };
  // A run is its own recorded execution: started from inside a LangChain runnable (an application's LangGraph tool
  // node calling Evident in process), the caller's config in async context storage would make the run's graph a
  // nested graph of the caller's, whose interrupts land in the caller's graph. So it starts from an empty context.
  const done = AsyncLocalStorageProviderSingleton.getInstance()
    .run(undefined, () =>
      executeRun({
        store: deps.store,
        agent,
        run,
        input,
        ...(checkpointId ? { checkpointId } : {}),
        leaseOwner: deps.leases.owner,
        events: deps.writer,
        ...(headCheckpointId !== undefined ? { fromCheckpointId: headCheckpointId } : {}),
        ...(recovery ? { afterSeq: recovery.afterSeq } : {}),
        ...(recovery?.failWith ? { failWith: recovery.failWith } : {}),
        streamModes,
        detailMaxBytes: deps.leases.settings.detailStreamMaxBytes,
        signal: controller.signal,
        // The end is stored: the thread is free for the next run at once (a client may start it as soon as it reads
        // the end), and the run's own last state is kept for its audit record.
        onEnd: (state) => {
          final = state as FinalState;
          endExecution();
        },
        logger: deps.logger,
      }),
    )
    .catch(async (error: unknown) => {
      // Only the store failing leaves the executor here; record what can still be recorded.
      deps.logger.error('run could not be recorded', { run_id: run.runId, error: String(error) });
      return (await deps.store.getRun(run.runId).catch(() => undefined)) ?? run;
    })
    .then(async (ended) => {
      endExecution();
      // Its webhook goes now (claimed in the store: a run this process left to another is not ended, and claims none).
      deps.webhooks.runEnded(run.runId);
      // The audit record comes after, while the run is still `active`, so closing the manager waits for it.
      await deps.trail.runEnded(ended, final);
      return ended;
    })
    .finally(endExecution);
  return { threadId: run.threadId, controller, done, recovered: recovery !== undefined };
}
