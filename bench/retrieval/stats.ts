/** Latency summaries and memory snapshots for the retrieval benchmark. */

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

/** Nearest-rank percentile of ascending-sorted values: the smallest value with at least p% of values at or below it. */
export function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    n: sorted.length,
    p50: nearestRank(sorted, 50),
    p95: nearestRank(sorted, 95),
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export interface MemorySnapshot {
  /** Resident set size now, MiB. */
  rssMiB: number;
  /** High-water mark of the resident set since the process started, MiB (`process.resourceUsage().maxRSS`). */
  maxRssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  /** Memory of ArrayBuffers and WebAssembly memories outside the V8 heap, MiB. */
  externalMiB: number;
}

const MIB = 1024 * 1024;
const round1 = (value: number): number => Math.round(value * 10) / 10;

/** Collects garbage first when the process runs with `--expose-gc`, so heap numbers are live data, not garbage. */
export function memorySnapshot(): MemorySnapshot {
  collectGarbage();
  const usage = process.memoryUsage();
  return {
    rssMiB: round1(usage.rss / MIB),
    maxRssMiB: round1((process.resourceUsage().maxRSS * 1024) / MIB),
    heapUsedMiB: round1(usage.heapUsed / MIB),
    heapTotalMiB: round1(usage.heapTotal / MIB),
    externalMiB: round1(usage.external / MIB),
  };
}

export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
