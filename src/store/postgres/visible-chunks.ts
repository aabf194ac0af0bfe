/**
 * How many chunks a reader may see, kept a few seconds per set of ACL keys. The vector channel reads it only to
 * choose between an exact scan (a reader of few chunks) and the HNSW walk; both filter by the principal in the same
 * statement, so a count a few seconds old can change how fast a search is, never what it may return. Counting is a
 * scan of the documents (14 ms for 10k documents at load 12), which every member's vector search paid before.
 * A count of zero is never reused: the reader's first documents must be found as soon as they are written.
 */
export class VisibleChunkCounts {
  private readonly counts = new Map<string, { n: number; at: number }>();

  constructor(
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 1_024,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async get(keys: readonly string[], count: () => Promise<number>): Promise<number> {
    const key = JSON.stringify([...keys].sort());
    const kept = this.counts.get(key);
    if (kept && kept.n > 0 && this.now() - kept.at < this.ttlMs) return kept.n;
    const n = await count();
    if (this.counts.size >= this.maxEntries) this.counts.clear();
    this.counts.set(key, { n, at: this.now() });
    return n;
  }
}
