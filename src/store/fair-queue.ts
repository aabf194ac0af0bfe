/**
 * Workers shared by many principals, served fairly: each principal's jobs wait in their own line, one of them runs at
 * a time, and a free worker takes the next job of the principal served longest ago, so one principal's backlog delays
 * another's job by at most one job of theirs, not by the whole backlog. A principal may have at most `maxPending` jobs
 * waiting or running (the caller's bound); a job past that is refused at once (`refuse`), so one request that sends
 * many (an MCP batch) cannot fill the line.
 */
export class FairQueue {
  private readonly lines = new Map<string, (() => Promise<void>)[]>();
  private readonly pending = new Map<string, number>();
  /** Principals with a job running now. */
  private readonly busy = new Set<string>();
  /** When each principal was last served (a turn counter), for round robin; forgotten when nothing of theirs waits. */
  private readonly served = new Map<string, number>();
  private turn = 0;

  constructor(private readonly options: { workers: number; refuse: (pending: number) => Error }) {}

  /**
   * Runs `job` when its turn comes, or refuses it at once when `key` already has `maxPending` waiting or running;
   * `waitedMs` is how long it waited in line (its time limit counts that too).
   */
  run<T>(key: string, maxPending: number, job: (waitedMs: number) => Promise<T>): Promise<T> {
    const pending = this.pending.get(key) ?? 0;
    if (pending >= maxPending) return Promise.reject(this.options.refuse(pending));
    this.pending.set(key, pending + 1);
    const queued = performance.now();
    return new Promise<T>((resolve, reject) => {
      const line = this.lines.get(key) ?? [];
      if (line.length === 0) this.lines.set(key, line);
      line.push(async () => {
        try {
          resolve(await job(performance.now() - queued));
        } catch (error) {
          reject(error);
        }
      });
      this.startNext();
    });
  }

  /** Starts jobs while a worker is free and some principal not running one has one waiting. */
  private startNext(): void {
    while (this.busy.size < this.options.workers) {
      const key = this.nextKey();
      if (key === undefined) return;
      const line = this.lines.get(key) as (() => Promise<void>)[];
      const job = line.shift() as () => Promise<void>;
      if (line.length === 0) this.lines.delete(key);
      this.served.set(key, ++this.turn);
      this.busy.add(key);
      void job().finally(() => {
        this.busy.delete(key);
        const left = (this.pending.get(key) ?? 1) - 1;
        if (left === 0) {
          this.pending.delete(key);
          this.served.delete(key);
        } else this.pending.set(key, left);
        this.startNext();
      });
    }
  }

  /** The waiting principal with nothing running, served longest ago (one never served first). */
  private nextKey(): string | undefined {
    let pick: string | undefined;
    for (const key of this.lines.keys()) {
      if (this.busy.has(key)) continue;
      if (pick === undefined || (this.served.get(key) ?? 0) < (this.served.get(pick) ?? 0)) pick = key;
    }
    return pick;
  }
}
