import type { RunEventRecord } from '../store/store.ts';

/** How many of an executing run's latest events stay in memory; a reader further behind reads the store. */
const KEPT_EVENTS = 256;

interface LiveLog {
  /** The sequence number the log's first kept event has (or will have, while it is empty). */
  firstSeq: number;
  events: RunEventRecord[];
}

/**
 * The recent stored events of the runs executing in this process, so that a reader here gets them without a store
 * query per event: only what the store committed is added, with its data as the store gives it back (JSON), so a
 * live stream and a replay from the store are the same. A run's log opens when its execution starts (after the
 * events it already has) and closes when it ends; a read it cannot answer (older events, a run not executing here)
 * is the store's.
 */
export class LiveRunEvents {
  private readonly logs = new Map<string, LiveLog>();

  /** Starts keeping the events of `runId` that follow `afterSeq`. */
  open(runId: string, afterSeq: number): void {
    this.logs.set(runId, { firstSeq: afterSeq + 1, events: [] });
  }

  close(runId: string): void {
    this.logs.delete(runId);
  }

  /** Committed events, in order for each run. */
  add(events: readonly RunEventRecord[]): void {
    for (const event of events) {
      const log = this.logs.get(event.runId);
      if (!log) continue;
      const expected = log.firstSeq + log.events.length;
      // A gap (never expected: one writer per run) would make the log lie; drop it and let readers use the store.
      if (event.seq !== expected) {
        this.logs.delete(event.runId);
        continue;
      }
      log.events.push({ runId: event.runId, seq: event.seq, event: event.event, data: asStored(event.data) });
      if (log.events.length > KEPT_EVENTS) {
        const dropped = log.events.length - KEPT_EVENTS;
        log.events.splice(0, dropped);
        log.firstSeq += dropped;
      }
    }
  }

  /**
   * The run's kept events after `afterSeq` ([] when it has none yet), or undefined when this cannot say: the run is
   * not executing here, or `afterSeq` is before what is kept.
   */
  after(runId: string, afterSeq: number): RunEventRecord[] | undefined {
    const log = this.logs.get(runId);
    if (!log || afterSeq < log.firstSeq - 1) return undefined;
    return log.events.slice(afterSeq - log.firstSeq + 1);
  }
}

/** The data as the store returns it: JSON, so class instances, dates and undefined fields read as a replay reads them. */
const asStored = (data: unknown): unknown => JSON.parse(JSON.stringify(data ?? null)) as unknown;
