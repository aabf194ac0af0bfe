import { randomUUID } from 'node:crypto';
import type { StateSnapshot } from '@langchain/langgraph';
import type { Principal } from '../domain/index.ts';
import { NotFoundError, RunFailedError, StoreError, ThreadBusyError, type RunFailure } from '../errors/index.ts';
import { silentLogger, type Logger } from '../logging/logger.ts';
import type {
  DocumentStore,
  PrincipalStore,
  RunEventRecord,
  RunLog,
  RunRecord,
  ThreadRecord,
  ThreadSummary,
} from '../store/store.ts';
import { runResultOf } from './run-result-of.ts';
import type { AgentRunResult } from '../domain/run-result.ts';
import { isStepStreamChunk, type StepEvent } from '../domain/step-event.ts';
import { DEFAULT_APPROVAL_POLICY, type ApprovalPolicy } from './policy/approval-policy.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { listCheckpointInfo, type CheckpointInfo } from './checkpoint-history.ts';
import { ownThread, readableRun, readableThread, threadNotFound } from './run-access.ts';
import { launchRun, type ActiveRun, type LaunchFrom, type RunLaunchDeps } from './run-launch.ts';
import { DEFAULT_RUN_LEASE_SETTINGS, RunLeases, type RunLeaseSettings } from './run-lease.ts';
import { RunRecovery, type RecoveredRun } from './run-recovery.ts';
import { MultitaskRuns } from './multitask-runs.ts';
import { ReaderRedaction, redactedSnapshot } from './redact-for-reader.ts';
import { RunWebhooks, type RunWebhookStore } from './webhooks/run-webhooks.ts';
import type { WebhooksConfig } from '../config/webhooks-schema.ts';
import type { RunWebhookWrite } from '../store/ports/run-webhook-log.ts';
import { RunStreamRedaction } from './run-stream-redaction.ts';
import { RunAdmission, type RunLimits } from './run-admission.ts';
import { runInputFor } from './run-input.ts';
import { RunEventWriter } from './run-event-writer.ts';
import { RunEventFeed } from './run-event-feed.ts';
import type { RunRequest } from './run-request.ts';
import { recoveredAgentOf, type RunAssistants } from './run-assistants.ts';
import type { RunAudit } from './run-audit.ts';
import { RunAuditTrail } from './run-audit-trail.ts';

/**
 * What the run engine uses of the store: the run log (threads, runs, events, leases), the chunks a stored state
 * cites (to withhold what a reader may not see) and a user's current groups (permissions at the moment of use).
 */
export type RunStore = RunLog & Pick<DocumentStore, 'getChunks'> & Pick<PrincipalStore, 'getUser'> & RunWebhookStore;

export interface RunManagerDeps {
  store: RunStore;
  agents: readonly AgentDefinition[];
  policy?: ApprovalPolicy;
  logger?: Logger;
  /** How often a subscriber re-reads the event log of a run executing elsewhere (another process). */
  pollMs?: number;
  /** How many runs this process executes at once, in all and per user. */
  limits?: RunLimits;
  /** Heartbeat and lease of the runs this manager executes (config `runs`; 5 s and 20 s by default). */
  leases?: RunLeaseSettings;
  /** Look for orphaned runs at start-up and every heartbeat, and take them over (default true). */
  recover?: boolean;
  /** Records asks (each run's end) and approvals in the audit log. */
  audit?: RunAudit;
  /** Resolves what a run names (an assistant id or an agent's name) to the configured agent it runs; without it, agents by name. */
  assistants?: RunAssistants;
  /** Run webhooks (config `webhooks`): without a secret, a run that names one is refused. */
  webhooks?: WebhooksConfig;
}

/** How long a cancel waits for another process to stop the run it executes (it polls every `pollMs`). */
const REMOTE_CANCEL_WAIT_MS = 10_000;

/**
 * Runs agents in the background and serves their recorded events. A run goes on when the client that started it
 * disconnects; any number of clients can stream it (replaying from any event id) or join it until it ends.
 */
export class RunManager {
  readonly agents: ReadonlyMap<string, AgentDefinition>;
  private readonly store: RunStore;
  private readonly policy: ApprovalPolicy;
  private readonly logger: Logger;
  private readonly pollMs: number;
  private readonly leases: RunLeases;
  private readonly recovery: RunRecovery;
  private readonly multitask: MultitaskRuns;
  private readonly active = new Map<string, ActiveRun>();
  private readonly busyThreads = new Set<string>();
  private readonly admission: RunAdmission;
  private readonly feed: RunEventFeed;
  private readonly writer: RunEventWriter;
  private readonly trail: RunAuditTrail;
  private readonly assistants: RunAssistants | undefined;
  private readonly webhooks: RunWebhooks;
  private readonly launchDeps: RunLaunchDeps;

  constructor(deps: RunManagerDeps) {
    this.store = deps.store;
    this.assistants = deps.assistants;
    this.agents = new Map(deps.agents.map((agent) => [agent.name, agent]));
    this.policy = deps.policy ?? DEFAULT_APPROVAL_POLICY;
    this.logger = deps.logger ?? silentLogger;
    this.pollMs = deps.pollMs ?? 250;
    this.trail = new RunAuditTrail(deps.audit, this.logger);
    this.admission = new RunAdmission(deps.limits);
    this.leases = new RunLeases(this.store, deps.leases ?? DEFAULT_RUN_LEASE_SETTINGS, this.logger);
    this.feed = new RunEventFeed({
      store: this.store,
      pollMs: this.pollMs,
      executing: (runId) => this.active.has(runId),
    });
    this.writer = new RunEventWriter(this.store, this.leases.owner, (events) => this.feed.committed(events));
    this.recovery = new RunRecovery({
      store: this.store,
      agents: this.agents,
      leases: this.leases,
      logger: this.logger,
      execute: (recovered) => this.relaunch(recovered),
      executing: (runId) => this.active.has(runId),
      ...(this.assistants ? { configured: recoveredAgentOf(this.assistants, this.store) } : {}),
    });
    if (deps.recover ?? true) this.recovery.start();
    this.webhooks = new RunWebhooks({
      store: this.store,
      config: deps.webhooks,
      owner: this.leases.owner,
      sweepMs: this.leases.settings.heartbeatMs,
      logger: this.logger,
    });
    if (deps.recover ?? true) this.webhooks.start();
    this.launchDeps = {
      store: this.store,
      feed: this.feed,
      writer: this.writer,
      leases: this.leases,
      webhooks: this.webhooks,
      trail: this.trail,
      logger: this.logger,
      pollMs: this.pollMs,
      executionEnded: (run) => {
        this.busyThreads.delete(run.threadId);
        this.finished(run.runId);
        // The thread is free: a run queued behind this one starts now rather than at the next sweep.
        this.multitask.poke();
      },
    };
    this.multitask = new MultitaskRuns({
      store: this.store,
      agents: this.agents,
      leases: this.leases,
      logger: this.logger,
      policy: this.policy,
      trail: this.trail,
      agent: (name) => this.agent(name),
      withAssistant: (request) => this.withAssistant(request),
      cancel: (threadId, runId, principal) => this.cancel(threadId, runId, principal),
      admit: (user) => this.admission.tryAdmit(user),
      launch: (agent, run, input, { failWith, ...from }) => {
        this.busyThreads.add(run.threadId);
        // As a recovered run: nobody here asked for it, so closing this process hands it over rather than cancelling it.
        this.launch(agent, run, input, { ...from, recovery: { afterSeq: 0, ...(failWith ? { failWith } : {}) } });
      },
      execution: (runId) => this.active.get(runId)?.done,
    });
  }

  agent(name: string): AgentDefinition {
    const agent = this.agents.get(name);
    if (!agent) throw new NotFoundError('assistant', name, `Assistants here: ${[...this.agents.keys()].join(', ')}.`);
    return agent;
  }

  /** Validates the request, records the run as `running`, and starts it; resolves once it is recorded, not when it ends. */
  async start(asked: RunRequest): Promise<RunRecord> {
    // What the run names is resolved first, as the caller may read it now: from here on `agent` is the graph's name.
    const request = await this.withAssistant(asked);
    // A webhook is checked before anything else happens (a refused one interrupts no running run).
    const webhook = await this.webhooks.admitRequest(request);
    return this.multitask.start(request, () => this.startNow(request, webhook), webhook);
  }

  private async startNow(request: RunRequest, webhook: { webhook?: RunWebhookWrite } = {}): Promise<RunRecord> {
    const agent = request.assistant?.agent ?? this.agent(request.agent);
    const { threadId, principal } = request;
    const thread = await this.threadFor(request);
    // The store refuses a second running run atomically; this only fails fast within the process.
    if (this.busyThreads.has(threadId)) throw new ThreadBusyError(threadId);
    const release = this.admission.admit(thread.owner);
    this.busyThreads.add(threadId);
    const runId = randomUUID();
    try {
      const { input, question, checkpointId, headCheckpointId, decided } = await runInputFor(request.action, {
        store: this.store,
        agent,
        thread,
        principal,
        runId,
        policy: request.assistant?.policy ?? this.policy,
      });
      const { action } = request;
      const surface = request.surface;
      if (decided && action.kind === 'resume')
        await this.trail.approvalDecided({
          run: { runId, threadId },
          decider: principal,
          decision: action.decision.decision,
          action: decided,
          ...(surface ? { surface } : {}),
        });
      // The run belongs to the thread's owner even when an admin decided on its action.
      const run = await this.store.startRun({
        runId,
        threadId,
        agent: agent.name,
        user: thread.owner,
        question,
        lease: this.leases.lease,
        ...(request.assistant
          ? { assistantId: request.assistant.assistantId, assistantVersion: request.assistant.version }
          : {}),
        multitaskStrategy: request.multitaskStrategy ?? 'reject',
        ...webhook,
      });
      this.trail.started(runId, { principal, kind: request.action.kind, ...(surface ? { surface } : {}) });
      this.launch(agent, run, input, {
        streamModes: request.streamModes,
        ...(checkpointId ? { checkpointId } : {}),
        ...(headCheckpointId !== undefined ? { headCheckpointId } : {}),
      });
      void this.active.get(run.runId)?.done.finally(release);
      return run;
    } catch (error) {
      release();
      this.busyThreads.delete(threadId);
      this.trail.forget(runId);
      throw error;
    }
  }

  /** The request with the assistant it names resolved (one the caller may not read is not found). */
  private async withAssistant(request: RunRequest): Promise<RunRequest> {
    if (!this.assistants || request.assistant) return request;
    const assistant = await this.assistants.resolve(request.principal, request.agent, request.assistantVersion);
    return { ...request, agent: assistant.agent.name, assistant };
  }

  /**
   * Starts a run and follows it to its end, as an in-process client (the CLI, the evaluation) does: step events go
   * to `onStep` as they are stored, and the final state comes back as a run result. A failed run throws its public error.
   */
  async run(request: RunRequest, onStep: (event: StepEvent) => void = () => undefined): Promise<AgentRunResult> {
    const run = await this.start(request);
    let values: Record<string, unknown> = {};
    let failure: RunFailure | undefined;
    for await (const event of this.events(run.runId, 0, new AbortController().signal, request.principal)) {
      if (event.event === 'custom' && isStepStreamChunk(event.data)) onStep(event.data.event);
      else if (event.event === 'values') values = event.data as Record<string, unknown>;
      else if (event.event === 'error') failure = event.data as RunFailure;
    }
    // The end is read; the run's audit record follows it: once that is written too, the run is done here.
    await this.wait(run.runId, new AbortController().signal);
    if (failure) throw new RunFailedError(failure);
    return runResultOf(values, run.threadId, run.runId);
  }

  /** The principal's threads, most recently updated first. */
  threads(principal: Principal): Promise<ThreadSummary[]> {
    return this.store.listThreads(principal.id);
  }

  /** A thread's runs with status and timings, oldest first, for its owner or an admin. */
  async runs(threadId: string, principal: Principal): Promise<RunRecord[]> {
    const thread = await readableThread(this.store, threadId, principal);
    return this.store.listRuns(threadId, thread.owner);
  }

  /** A thread's checkpoints, oldest first, every branch included: where `fork` can start from. */
  async checkpoints(threadId: string, principal: Principal): Promise<CheckpointInfo[]> {
    const { agent } = await this.threadState(threadId, principal);
    return agent ? listCheckpointInfo(agent.graph, threadId) : [];
  }

  /**
   * Stops a running run (its owner, or an admin stopping a runaway); the run ends `cancelled`. A run executing in
   * this process is stopped at once; one executing in another process is flagged in the store, which that process
   * polls, and this waits (a bounded time) for it to record its end. False when the run had already ended.
   */
  async cancel(threadId: string, runId: string, principal: Principal): Promise<boolean> {
    await readableRun(this.store, threadId, runId, principal);
    const active = this.active.get(runId);
    if (active) {
      active.controller.abort();
      await active.done;
      return true;
    }
    // A queued run ends before it starts (its readers read its end).
    if (await this.multitask.cancelPending(runId)) {
      this.feed.wake(runId);
      this.webhooks.runEnded(runId);
      return true;
    }
    if (!(await this.store.requestRunCancel(runId))) return false;
    await this.wait(runId, AbortSignal.timeout(REMOTE_CANCEL_WAIT_MS));
    return true;
  }

  /**
   * LangGraph's cancel with `action=rollback`: a running or pending run is stopped and deleted, with the checkpoints its
   * thread took since it started (the thread's state is what it was before the run). False when it had already ended.
   */
  rollback(threadId: string, runId: string, principal: Principal): Promise<boolean> {
    return this.multitask.rollback(threadId, runId, principal);
  }

  /** The run's events after `afterSeq`, live until its `end` event (or until `signal` aborts). */
  async *events(
    runId: string,
    afterSeq: number,
    signal: AbortSignal,
    reader: Principal,
  ): AsyncGenerator<RunEventRecord> {
    for await (const batch of this.eventBatches(runId, afterSeq, signal, reader)) yield* batch;
  }

  /**
   * The same events in the batches they were committed in (a step's values, updates and step event together), so a
   * stream can send each batch as one write. Never an empty batch.
   */
  async *eventBatches(
    runId: string,
    afterSeq: number,
    signal: AbortSignal,
    reader: Principal,
  ): AsyncGenerator<RunEventRecord[]> {
    // What the run stored, read from its first event (`values` are stored as deltas), as the reader may see it today.
    const reading = new RunStreamRedaction(this.store, reader);
    for await (const stored of this.feed.stored(runId, 0, signal)) {
      const batch = await reading.batch(stored, afterSeq);
      if (batch.length > 0) yield batch;
    }
  }

  /** Resolves with the run's record once it has ended. */
  async wait(runId: string, signal: AbortSignal): Promise<RunRecord | undefined> {
    const active = this.active.get(runId);
    if (active) {
      const ended = await active.done;
      // A client waiting for the end (runs/wait, the CLI) gets the answer only once the audit log has its record.
      if (this.trail.isUnrecorded(runId))
        throw new StoreError(
          'The run ended but its audit record could not be written, so its answer is not returned.',
          {
            hint: "Check the store's audit log; the run's outcome is stored and its thread takes the next question.",
          },
        );
      return ended;
    }
    for await (const _batch of this.feed.stored(runId, 0, signal)) {
      // Reading to the end is the wait; the events themselves are not needed.
    }
    return this.store.getRun(runId);
  }

  /** The thread with its agent's current state (or the state at `checkpointId`), for a principal allowed to read it. */
  async threadState(
    threadId: string,
    principal: Principal,
    checkpointId?: string,
  ): Promise<{ thread: ThreadRecord; agent?: AgentDefinition; snapshot?: StateSnapshot }> {
    const thread = await readableThread(this.store, threadId, principal);
    if (!thread.agent) return { thread };
    const agent = this.agent(thread.agent);
    const at = checkpointId === undefined ? {} : { checkpoint_id: checkpointId };
    const snapshot = await agent.graph.getState({ configurable: { thread_id: threadId, ...at } });
    return { thread, agent, snapshot: await redactedSnapshot(snapshot, new ReaderRedaction(this.store, principal)) };
  }

  /** The thread's checkpoints as states, newest first, at most `limit`, each as the reader may see it today. */
  async history(
    threadId: string,
    principal: Principal,
    limit: number,
  ): Promise<{ agent?: AgentDefinition; snapshots: StateSnapshot[] }> {
    const thread = await readableThread(this.store, threadId, principal);
    if (!thread.agent) return { snapshots: [] };
    const agent = this.agent(thread.agent);
    const redaction = new ReaderRedaction(this.store, principal);
    const snapshots: StateSnapshot[] = [];
    for await (const snapshot of agent.graph.getStateHistory({ configurable: { thread_id: threadId } }, { limit })) {
      snapshots.push(await redactedSnapshot(snapshot, redaction));
    }
    return { agent, snapshots };
  }

  /** Deletes the owner's thread: its runs, their events and its checkpoints. Not while a run of it executes. */
  async deleteThread(threadId: string, principal: Principal): Promise<void> {
    const thread = await ownThread(this.store, threadId, principal);
    if (this.busyThreads.has(threadId)) throw new ThreadBusyError(threadId);
    await this.store.deleteThread(threadId, principal.id);
    if (thread.agent) await this.agent(thread.agent).forgetThread(threadId);
  }

  /**
   * Server shutdown: stops looking for orphans, cancels every run started here (they record their end) and hands
   * the runs it recovered back (their lease is released, so the next process to sweep resumes them), then waits.
   */
  async close(): Promise<void> {
    await this.recovery.stop();
    await this.multitask.stop();
    const running = [...this.active.values()];
    for (const run of running) run.controller.abort(run.recovered ? 'handover' : undefined);
    await Promise.allSettled(running.map((run) => run.done));
    await this.webhooks.close();
  }

  private async threadFor(request: RunRequest): Promise<ThreadRecord> {
    const existing = await this.store.getThread(request.threadId);
    if (existing) return existing;
    // Only a question starts a thread; a decision or a fork needs the thread it refers to.
    if (request.action.kind !== 'ask') throw threadNotFound(request.threadId);
    if (!request.createThread)
      throw new NotFoundError(
        'thread',
        request.threadId,
        'Create it first (POST /threads), or pass if_not_exists: "create".',
      );
    return this.store.createThread({ threadId: request.threadId, owner: request.principal.id });
  }

  /** Executes an orphan this manager claimed: resumed from its checkpoint, or ended failed. */
  private relaunch({ agent, run, plan, afterSeq }: RecoveredRun): void {
    this.busyThreads.add(run.threadId);
    this.launch(agent, run, null, {
      recovery: { afterSeq, ...(plan.kind === 'fail' ? { failWith: plan.error } : {}) },
    });
  }

  private launch(agent: AgentDefinition, run: RunRecord, input: unknown, from: LaunchFrom): void {
    const active = launchRun(this.launchDeps, agent, run, input, from);
    this.active.set(run.runId, active);
    void active.done.finally(() => this.active.delete(run.runId));
  }

  /** The run's end is stored (or its execution here is over): its readers go on from the store. */
  private finished(runId: string): void {
    this.feed.close(runId);
    this.writer.forget(runId);
    this.feed.wake(runId);
  }
}
