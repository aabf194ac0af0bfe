/** Times a checkpoint saver's reads and writes in place, so a real run reports what its checkpoints cost. */
import type { BaseCheckpointSaver } from '@langchain/langgraph';

export interface SaverTimings {
  putMs: number;
  puts: number;
  putWritesMs: number;
  putWrites: number;
  getTupleMs: number;
  getTuples: number;
}

export interface TimedSaver {
  readonly timings: SaverTimings;
  reset(): void;
}

const zero = (): SaverTimings => ({ putMs: 0, puts: 0, putWritesMs: 0, putWrites: 0, getTupleMs: 0, getTuples: 0 });

/**
 * Wraps `put`, `putWrites` and `getTuple` of this saver instance. Patching the instance (not a subclass) lets the
 * benchmark measure the saver that the agent runtime built itself, unchanged. better-sqlite3 is synchronous, so the
 * time until each promise settles is the time the event loop was held.
 */
export function timeSaver(saver: BaseCheckpointSaver): TimedSaver {
  let timings = zero();
  const put = saver.put.bind(saver);
  const putWrites = saver.putWrites.bind(saver);
  const getTuple = saver.getTuple.bind(saver);
  saver.put = async (...args) => {
    const began = performance.now();
    try {
      return await put(...args);
    } finally {
      timings.putMs += performance.now() - began;
      timings.puts += 1;
    }
  };
  saver.putWrites = async (...args) => {
    const began = performance.now();
    try {
      return await putWrites(...args);
    } finally {
      timings.putWritesMs += performance.now() - began;
      timings.putWrites += 1;
    }
  };
  saver.getTuple = async (...args) => {
    const began = performance.now();
    try {
      return await getTuple(...args);
    } finally {
      timings.getTupleMs += performance.now() - began;
      timings.getTuples += 1;
    }
  };
  return {
    get timings() {
      return timings;
    },
    reset: () => {
      timings = zero();
    },
  };
}
