import { TooManyRunsError } from '../errors/index.ts';

/** How many runs one process executes at once: in all, and per user (the thread's owner). */
export interface RunLimits {
  maxConcurrent: number;
  maxConcurrentPerUser: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { maxConcurrent: 64, maxConcurrentPerUser: 16 };

/**
 * Admits runs within the limits, so one user (or a burst) cannot take every step of the one event loop: a run
 * over a limit is refused at once (`too_many_runs`, HTTP 429 with `Retry-After`) rather than queued. Counted per
 * process: several servers on one store each apply their own limits.
 */
export class RunAdmission {
  private total = 0;
  private readonly perUser = new Map<string, number>();

  constructor(private readonly limits: RunLimits = DEFAULT_RUN_LIMITS) {}

  /** A place for a run of `user`, or undefined over a limit (a queued run then waits for a later sweep). */
  tryAdmit(user: string): (() => void) | undefined {
    try {
      return this.admit(user);
    } catch {
      return undefined;
    }
  }

  /** Takes a place for a run of `user`, or throws; the returned function gives it back (once). */
  admit(user: string): () => void {
    const mine = this.perUser.get(user) ?? 0;
    if (mine >= this.limits.maxConcurrentPerUser)
      throw new TooManyRunsError(
        'user',
        this.limits.maxConcurrentPerUser,
        'runs.maxConcurrentPerUser (EVIDENT_RUNS_MAX_CONCURRENT_PER_USER)',
      );
    if (this.total >= this.limits.maxConcurrent)
      throw new TooManyRunsError(
        'server',
        this.limits.maxConcurrent,
        'runs.maxConcurrent (EVIDENT_RUNS_MAX_CONCURRENT)',
      );
    this.total += 1;
    this.perUser.set(user, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.perUser.get(user) ?? 1) - 1;
      if (left > 0) this.perUser.set(user, left);
      else this.perUser.delete(user);
    };
  }
}
