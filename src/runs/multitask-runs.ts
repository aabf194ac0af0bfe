import { randomUUID } from 'node:crypto';
import type { Principal } from '../domain/index.ts';
import { ThreadBusyError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { ClaimedRun, RunEnqueue, RunLog, RunRecord } from '../store/store.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { currentPrincipal } from './current-principal.ts';
import {
  assertMayRunOn,
  parseQueuedRequest,
  queuedQuestion,
  queuedRequestOf,
  rollbackRun,
  stopInflight,
  type InflightStop,
} from './double-texting.ts';
import type { ApprovalPolicy } from './policy/approval-policy.ts';
import { readableRun, readableThread, threadNotFound } from './run-access.ts';
import type { RunAuditTrail } from './run-audit-trail.ts';
import { runInputFor } from './run-input.ts';
import type { RunLeases } from './run-lease.ts';
import { RunQueue } from './run-queue.ts';
import type { RunRequest } from './run-request.ts';

/** Where a queued run's execution starts, or the error it ends with when it cannot start. */
export interface QueuedLaunch {
  streamModes?: readonly string[] | undefined;
  checkpointId?: string;
  headCheckpointId?: string | null;
  failWith?: Error;
}

/** What double-texting uses of the run manager: its store and agents, and the few steps a run start takes. */
export interface MultitaskHost {
  store: RunLog & Parameters<typeof currentPrincipal>[0] & Parameters<typeof runInputFor>[1]['store'];
  agents: ReadonlyMap<string, AgentDefinition>;
  leases: RunLeases;
  logger: Logger;
  policy: ApprovalPolicy;
  trail: RunAuditTrail;
  agent(name: string): AgentDefinition;
  /** The request with the assistant it names resolved, as the asker may read it now. */
  withAssistant(request: RunRequest): Promise<RunRequest>;
  /** The manager's cancel (the caller's right checked, a running run awaited). */
  cancel(threadId: string, runId: string, principal: Principal): Promise<boolean>;
  /** A place for one more run of `user` in this process, or undefined over its limits. */
  admit(user: string): (() => void) | undefined;
  /** Marks the thread busy here and executes the claimed run; resolves once it is launched. */
  launch(agent: AgentDefinition, run: RunRecord, input: unknown, from: QueuedLaunch): void;
  /** The execution of a run launched here, while it lasts. */
  execution(runId: string): Promise<unknown> | undefined;
}

/**
 * Double-texting in the run manager: a run start on a busy thread by its `multitask_strategy`, the run queue of this
 * process (claiming the queued runs whose turn has come, whichever server queued them), cancelling a queued run, and
 * LangGraph's cancel with `action=rollback`.
 */
export class MultitaskRuns {
  private readonly queue: RunQueue;

  constructor(private readonly host: MultitaskHost) {
    this.queue = new RunQueue({
      store: host.store,
      agents: host.agents,
      leases: host.leases,
      logger: host.logger,
      admit: (user) => host.admit(user),
      execute: (claimed, release) => this.executeQueued(claimed, release),
    });
    this.queue.start();
  }

  /**
   * Starts the run by its strategy: `reject` as `startNow` does; `enqueue` records it pending behind a busy thread (or
   * starts it at once on an idle one); `interrupt` and `rollback` stop the thread's runs first. `recorded` is what the
   * run's start records beside it, recorded with a queued run too.
   */
  async start(
    request: RunRequest,
    startNow: () => Promise<RunRecord>,
    recorded: Omit<Partial<RunEnqueue>, 'runId' | 'threadId' | 'agent' | 'user' | 'question' | 'request'> = {},
  ): Promise<RunRecord> {
    const strategy = request.multitaskStrategy ?? 'reject';
    if (strategy === 'reject') return startNow();
    const { store } = this.host;
    const agent = request.assistant?.agent ?? this.host.agent(request.agent);
    // A second round only when another run took the thread between the strategy's step and the start.
    for (let round = 0; ; round += 1) {
      const thread = await store.getThread(request.threadId);
      if (thread) {
        assertMayRunOn(thread, request);
        if (strategy === 'enqueue') {
          const queued = await store.enqueueRun({
            runId: randomUUID(),
            threadId: thread.threadId,
            agent: agent.name,
            user: thread.owner,
            question: queuedQuestion(request.action),
            request: queuedRequestOf(request),
            ...(request.assistant
              ? { assistantId: request.assistant.assistantId, assistantVersion: request.assistant.version }
              : {}),
            ...recorded,
          });
          if (queued) return queued;
        } else await stopInflight(this.stopping(thread.agent), thread, strategy, request.principal);
      }
      try {
        return await startNow();
      } catch (error) {
        if (!ThreadBusyError.isInstance(error) || round >= 2) throw error;
      }
    }
  }

  /** Ends a queued run before it starts (its readers read its end); its thread's next queued run may go. */
  async cancelPending(runId: string): Promise<RunRecord | undefined> {
    const cancelled = await this.host.store.cancelPendingRun(runId);
    if (cancelled) void this.queue.poke();
    return cancelled;
  }

  /**
   * LangGraph's cancel with `action=rollback`: a running or pending run is stopped and deleted, with the checkpoints its
   * thread took since it started (the thread's state is what it was before the run). False when it had already ended.
   */
  async rollback(threadId: string, runId: string, principal: Principal): Promise<boolean> {
    const run = await readableRun(this.host.store, threadId, runId, principal);
    const thread = await readableThread(this.host.store, threadId, principal);
    return rollbackRun(this.stopping(thread.agent), thread, run, principal);
  }

  /** A thread is free here: a run queued behind it starts now rather than at the next sweep. */
  poke(): void {
    void this.queue.poke();
  }

  stop(): Promise<void> {
    return this.queue.stop();
  }

  private stopping(threadAgent: string | null): InflightStop {
    const { store, agents } = this.host;
    return {
      store,
      agent: threadAgent ? agents.get(threadAgent) : undefined,
      cancel: (threadId, runId, principal) => this.host.cancel(threadId, runId, principal),
    };
  }

  /**
   * Executes a queued run this process claimed: its request is prepared now, as a run started now is (the asker's
   * access read again, a decision authorized against the thread as it is now); one that cannot start (the thread
   * waits for a decision, the asker lost access) ends `failed` with the public error, so its readers see why.
   */
  private executeQueued({ run, request }: ClaimedRun, release: () => void): void {
    const launched = this.prepareQueued(run, request).then(
      ({ agent, streamModes, prepared: { input, checkpointId, headCheckpointId } }) =>
        this.host.launch(agent, run, input, {
          streamModes,
          ...(checkpointId ? { checkpointId } : {}),
          ...(headCheckpointId !== undefined ? { headCheckpointId } : {}),
        }),
      (error: unknown) =>
        this.host.launch(this.host.agent(run.agent), run, null, {
          failWith: error instanceof Error ? error : new Error(String(error)),
        }),
    );
    void launched.then(() => {
      const execution = this.host.execution(run.runId);
      if (execution) void execution.finally(release);
      else release();
    });
  }

  private async prepareQueued(run: RunRecord, stored: unknown) {
    const { store, trail } = this.host;
    const queued = parseQueuedRequest(stored);
    const thread = await store.getThread(run.threadId);
    if (!thread) throw threadNotFound(run.threadId);
    const principal = await currentPrincipal(store, queued.principal);
    const { action, surface } = queued;
    // The assistant it names is resolved again, as the asker may read it now.
    const request = await this.host.withAssistant({
      agent: queued.assistant ?? run.agent,
      threadId: run.threadId,
      principal,
      action,
      ...(queued.assistantVersion ? { assistantVersion: queued.assistantVersion } : {}),
    });
    const agent = request.assistant?.agent ?? this.host.agent(run.agent);
    const prepared = await runInputFor(action, {
      store,
      agent,
      thread,
      principal,
      runId: run.runId,
      policy: request.assistant?.policy ?? this.host.policy,
    });
    if (prepared.decided && action.kind === 'resume')
      await trail.approvalDecided({
        run: { runId: run.runId, threadId: run.threadId },
        decider: principal,
        decision: action.decision.decision,
        action: prepared.decided,
        ...(surface ? { surface } : {}),
      });
    trail.started(run.runId, { principal, kind: action.kind, ...(surface ? { surface } : {}) });
    return { agent, prepared, streamModes: queued.streamModes };
  }
}
