import type { RunEventRecord, RunLog } from '../store/store.ts';

/** At most this many events go to the store in one transaction; a longer queue is written in several. */
const MAX_BATCH = 512;

interface Pending {
  event: RunEventRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Writes the run events of every run one manager executes. `append` queues an event and resolves once it is
 * stored: what every run appends during one turn of the event loop goes to the store in one transaction (one commit
 * for all of them, not one per event), written when the loop next checks immediates. A run's events are stored in
 * the order it appended them (one batch is written at a time), so a run need not wait for one before appending the
 * next. A batch the store refuses is retried run by run, so one run that lost its lease (or whose sequence number is
 * taken) fails alone; every later event of that run is refused too, so its log never has a gap. `stored` hears of
 * every event once it is committed.
 */
export class RunEventWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private writing: Promise<void> | undefined;
  /** Runs whose append the store refused: nothing more of theirs is written (until `forget`). */
  private readonly refused = new Map<string, unknown>();

  constructor(
    private readonly store: Pick<RunLog, 'appendRunEvents'>,
    private readonly leaseOwner: string,
    private readonly stored: (events: readonly RunEventRecord[]) => void,
  ) {}

  /** Queues `event` for the next batch; resolves when it is stored, rejects with the store's refusal. */
  append(event: RunEventRecord): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const refusal = this.refused.get(event.runId);
      if (refusal !== undefined) return reject(refusal);
      this.queue.push({ event, resolve, reject });
      this.schedule();
    });
  }

  /** The run's execution here is over: its refusal, if any, is dropped. */
  forget(runId: string): void {
    this.refused.delete(runId);
  }

  /** Stores `event` at once, outside any batch: a run's first event, which its client is waiting for. */
  async appendNow(event: RunEventRecord): Promise<void> {
    await this.store.appendRunEvents([event], this.leaseOwner);
    this.stored([event]);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      // One batch at a time: what arrives while one is written (a remote store) goes in the next, whole.
      this.writing ??= this.drain().finally(() => {
        this.writing = undefined;
        if (this.queue.length > 0) this.schedule();
      });
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      await this.write(batch);
    }
  }

  private async write(queued: Pending[]): Promise<void> {
    const batch: Pending[] = [];
    for (const pending of queued) {
      const refusal = this.refused.get(pending.event.runId);
      if (refusal === undefined) batch.push(pending);
      else pending.reject(refusal);
    }
    if (batch.length === 0) return;
    try {
      await this.store.appendRunEvents(
        batch.map((pending) => pending.event),
        this.leaseOwner,
      );
    } catch (error) {
      const runs = groupByRun(batch);
      if (runs.length === 1) {
        this.refused.set(batch[0]?.event.runId ?? '', error);
        return settle(batch, error);
      }
      // The batch is one transaction, so nothing of it was stored: each run's events again, alone.
      for (const events of runs) await this.write(events);
      return;
    }
    this.stored(batch.map((pending) => pending.event));
    settle(batch);
  }
}

function groupByRun(batch: Pending[]): Pending[][] {
  const runs = new Map<string, Pending[]>();
  for (const pending of batch) {
    const list = runs.get(pending.event.runId);
    if (list) list.push(pending);
    else runs.set(pending.event.runId, [pending]);
  }
  return [...runs.values()];
}

function settle(batch: Pending[], error?: unknown): void {
  for (const pending of batch) {
    if (error === undefined) pending.resolve();
    else pending.reject(error);
  }
}
