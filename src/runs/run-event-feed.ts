import { EventEmitter } from 'node:events';
import { isRunFinished, type RunEventRecord, type RunLog } from '../store/store.ts';
import { LiveRunEvents } from './live-run-events.ts';

export interface RunEventFeedDeps {
  store: Pick<RunLog, 'listRunEvents' | 'getRun'>;
  /** How often a reader re-reads the event log of a run executing elsewhere (another process). */
  pollMs: number;
  /** Whether the run executes in this process (its events are then announced here as they are committed). */
  executing(runId: string): boolean;
}

/**
 * A run's stored events as the run manager reads them, live until its `end` event: a run executing here is read
 * from memory as its events are committed (and readers are woken at once); anything else from the store, polled.
 */
export class RunEventFeed {
  /** Emits a run id whenever that run stored an event. */
  private readonly appended = new EventEmitter().setMaxListeners(0);
  /** The recent events of the runs executing here, for readers in this process. */
  private readonly live = new LiveRunEvents();

  constructor(private readonly deps: RunEventFeedDeps) {}

  /** Starts keeping the events of a run that begins executing here, after the events it already has. */
  open(runId: string, afterSeq: number): void {
    this.live.open(runId, afterSeq);
  }

  /** What the store committed (the event writer's callback): kept for readers here, who are woken. */
  committed(events: readonly RunEventRecord[]): void {
    this.live.add(events);
    for (const runId of new Set(events.map((event) => event.runId))) this.appended.emit(runId);
  }

  /** The run's execution here is over: its readers go on from the store. */
  close(runId: string): void {
    this.live.close(runId);
  }

  /** Wakes the run's readers (its end is stored, or its execution here is over). */
  wake(runId: string): void {
    this.appended.emit(runId);
  }

  /** The run's events as stored, in the batches they were committed in, live until its `end` event. */
  async *stored(runId: string, afterSeq: number, signal: AbortSignal): AsyncGenerator<RunEventRecord[]> {
    const { store, pollMs, executing } = this.deps;
    let last = afterSeq;
    while (!signal.aborted) {
      // Listening before reading: an event stored between the read and the wait still wakes us.
      const wake = this.wakeOnAppend(runId);
      try {
        const kept = this.live.after(runId, last);
        const batch = kept ?? (await store.listRunEvents(runId, last));
        const end = batch.findIndex((event) => event.event === 'end');
        const through = end === -1 ? batch : batch.slice(0, end + 1);
        if (through.length > 0) {
          yield through;
          last = (through.at(-1) as RunEventRecord).seq;
          if (end !== -1) return;
          continue;
        }
        // Executing here and nothing new yet: its next event (or its end) wakes us.
        if (kept && executing(runId)) {
          await firstOf(wake.appended, pollMs, signal);
          continue;
        }
        // Nothing new: a run that ended without an `end` event (its process died) ends the stream too.
        const run = await store.getRun(runId);
        if (!run) return;
        if (isRunFinished(run.status) && !executing(runId) && (await store.listRunEvents(runId, last, 1)).length === 0)
          return;
        // A run executing in another process stores events we are not told of: poll.
        await firstOf(wake.appended, pollMs, signal);
      } finally {
        wake.dispose();
      }
    }
  }

  private wakeOnAppend(runId: string): { appended: Promise<void>; dispose(): void } {
    let listener = (): void => undefined;
    const appended = new Promise<void>((resolve) => {
      listener = () => resolve();
      this.appended.once(runId, listener);
    });
    return { appended, dispose: () => this.appended.off(runId, listener) };
  }
}

/** Resolves when `event` settles, `ms` pass, or `signal` aborts, whichever is first, leaving no timer or listener behind. */
function firstOf(event: Promise<void>, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    void event.then(done);
  });
}
