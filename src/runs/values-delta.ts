/**
 * Run events store a `values` chunk as what changed since the run's previous one, not the whole state again: a
 * state carries the thread's history and evidence, and repeating it at every step grew the store by the state's
 * size per step. Readers get whole values back (`ValuesReplay`), so the stream is what LangGraph clients expect.
 */
const DELTA = '__values_delta__';

type Values = Record<string, unknown>;

interface StoredDelta {
  [DELTA]: { changed: Values; removed: string[] };
}

const isDelta = (data: unknown): data is StoredDelta => typeof data === 'object' && data !== null && DELTA in data;

/** What to store for `next`: all of it first, then the top-level fields that differ from `previous`. */
export function valuesToStore(previous: Values | undefined, next: Values): Values | StoredDelta {
  if (!previous) return next;
  const changed: Values = {};
  for (const [key, value] of Object.entries(next)) {
    // A channel a step left alone is the very object it was (compared as JSON only when it is not).
    if (previous[key] !== value && JSON.stringify(previous[key]) !== JSON.stringify(value)) changed[key] = value;
  }
  const removed = Object.keys(previous).filter((key) => !(key in next));
  return { [DELTA]: { changed, removed } };
}

/** Rebuilds whole values from a run's stored `values` events, read in order from its first. */
export class ValuesReplay {
  private current: Values = {};

  next(stored: unknown): Values {
    if (!isDelta(stored)) {
      this.current = (stored ?? {}) as Values;
      return this.current;
    }
    const { changed, removed } = stored[DELTA];
    const rebuilt: Values = { ...this.current, ...changed };
    for (const key of removed) delete rebuilt[key];
    this.current = rebuilt;
    return rebuilt;
  }
}
