import { RunOrphanedError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { RunLog, RunRecord } from '../store/store.ts';
import type { AgentDefinition } from './agent-definition.ts';
import { checkpointIdOf } from './checkpoint-id.ts';
import type { RunLeases } from './run-lease.ts';

/**
 * What becomes of an orphaned run once claimed. `resume`: the graph continues from the thread's last checkpoint
 * with input null, the way LangGraph resumes (the node that was running when the process died runs again; an
 * approval already given is in the checkpoint's pending writes and is not asked again). `fail`: no checkpoint to
 * continue from, so the run ends `failed` with `RunOrphanedError`.
 */
export type RecoveryPlan = { kind: 'resume' } | { kind: 'fail'; error: Error };

/** A claimed orphan, handed to the run manager to execute: its plan and the last event its log holds. */
export interface RecoveredRun {
  agent: AgentDefinition;
  run: RunRecord;
  plan: RecoveryPlan;
  afterSeq: number;
}

/**
 * Resume where the thread's head waits for a decision (a decision run that died: its approval, if it got that far,
 * is a pending write of that checkpoint; if not, the graph asks for it again and the run ends `interrupted`), or
 * where the head has moved on from the checkpoint the run started at (its first `metadata` names it: the
 * checkpoints since are the run's own work). A head that has not moved belongs to an earlier run (this one died
 * before its first checkpoint): continuing it would answer another question, so the run fails.
 */
export async function recoveryPlanFor(
  store: Pick<RunLog, 'listRunEvents'>,
  agent: AgentDefinition,
  run: RunRecord,
): Promise<RecoveryPlan> {
  const head = await agent.graph.getState({ configurable: { thread_id: run.threadId } });
  if (!head.createdAt) return { kind: 'fail', error: new RunOrphanedError(run.runId) };
  if (head.tasks.some((task) => task.interrupts.length > 0)) return { kind: 'resume' };
  // No first event: the process died before the graph started, so the head is an earlier run's.
  const [first] = await store.listRunEvents(run.runId, 0, 1);
  const startedFrom =
    first?.event === 'metadata'
      ? ((first.data as { from_checkpoint_id?: string | null }).from_checkpoint_id ?? null)
      : checkpointIdOf(head);
  return checkpointIdOf(head) !== startedFrom
    ? { kind: 'resume' }
    : { kind: 'fail', error: new RunOrphanedError(run.runId) };
}

export interface RunRecoveryDeps {
  store: RunLog;
  agents: ReadonlyMap<string, AgentDefinition>;
  leases: RunLeases;
  logger: Logger;
  /** Executes a claimed orphan in this process (the run manager's launch). */
  execute(recovered: RecoveredRun): void;
  /** Whether this process is executing the run: its lease lapsed only because a heartbeat came late. */
  executing(runId: string): boolean;
  /** The agent a claimed run continues with (configured as its assistant version); a refusal fails the run. */
  configured?(run: RunRecord, agent: AgentDefinition): Promise<AgentDefinition>;
}

/**
 * Finds orphaned runs (running, lease expired) and takes them over: at start-up, then every heartbeat, so a server
 * sees the expired lease of another server that died. The claim is atomic in the store: of several servers
 * sweeping at once, one gets each run. Runs of an agent this process does not serve are left to one that does.
 */
export class RunRecovery {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: RunRecoveryDeps) {}

  start(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.deps.leases.settings.heartbeatMs);
    this.timer.unref();
  }

  /** One pass over the orphans; a pass already under way is joined, not doubled. */
  sweep(): Promise<void> {
    this.sweeping ??= this.recoverAll().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  /** No further sweeps; resolves once the one under way has handed over what it claimed. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** The run's configured agent, or why it may not continue (its assistant is gone or no longer readable). */
  private async configured(
    run: RunRecord,
    agent: AgentDefinition,
  ): Promise<{ agent: AgentDefinition } | { refused: Error }> {
    if (!this.deps.configured) return { agent };
    try {
      return { agent: await this.deps.configured(run, agent) };
    } catch (error) {
      return { refused: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  private async recoverAll(): Promise<void> {
    const { store, agents, leases, logger } = this.deps;
    try {
      for (const orphan of await store.listOrphanedRuns()) {
        if (this.stopped) return;
        const agent = agents.get(orphan.agent);
        // Never claim a run from oneself: a second execution under the same owner would pass every lease check.
        if (!agent || this.deps.executing(orphan.runId)) continue;
        const run = await store.claimOrphanedRun(orphan.runId, leases.lease);
        if (!run) continue;
        // Read after the claim: the process that lost the run can no longer append, so this is its log's end.
        const afterSeq = await store.lastRunEventSeq(run.runId);
        const configured = await this.configured(run, agent);
        const plan =
          'refused' in configured
            ? { kind: 'fail' as const, error: configured.refused }
            : await recoveryPlanFor(store, configured.agent, run).catch((error: unknown): RecoveryPlan => {
                logger.warn('orphaned run: its checkpoint could not be read', {
                  run_id: run.runId,
                  error: String(error),
                });
                return { kind: 'fail', error: new RunOrphanedError(run.runId) };
              });
        logger.warn('recovering an orphaned run', {
          run_id: run.runId,
          thread_id: run.threadId,
          attempt: run.attempt,
          plan: plan.kind,
          after_seq: afterSeq,
        });
        this.deps.execute({ agent: 'agent' in configured ? configured.agent : agent, run, plan, afterSeq });
      }
    } catch (error) {
      // The store briefly unreachable: the next beat sweeps again.
      logger.warn('orphaned runs not swept', { error: String(error) });
    }
  }
}
