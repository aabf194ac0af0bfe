/**
 * Indices (into `scores[0..n)`) of the `k` highest scores, best first. Ties go to the lower `tieKey`, so
 * results are deterministic. Scores are finite (a NaN is never taken once k others are).
 *
 * A long list (≥ PREFILTER_MIN_RATIO × k) is first cut by a floor: every STEP-th score is sampled, and the floor is
 * the sample's ⌈2k / STEP⌉-th best (a quickselect), so about 2k scores are at or above it. If at least k are, the
 * k-th best score overall is at or above the floor, so every index of the answer — ties at its last score included —
 * is among the ones kept, and the heap below ranks only those: the same indices in the same order as ranking all n.
 * If fewer than k are (or more than the kept list holds), the heap ranks all n. On 84k scores and k = 400 (the int8
 * pass's rescoring depth at 100k chunks) this replaces ~20k heap comparisons through `tieKey` by one pass of plain
 * comparisons.
 */
export function topK(scores: Float32Array, n: number, k: number, tieKey: (index: number) => number): number[] {
  if (k <= 0 || n <= 0) return [];
  if (n >= k * PREFILTER_MIN_RATIO) {
    const kept = aboveFloor(scores, n, k);
    if (kept) return heapTopK(scores, kept, kept.length, k, tieKey);
  }
  return heapTopK(scores, undefined, n, k, tieKey);
}

/** From this many scores per result asked for, the floor is worth computing. */
const PREFILTER_MIN_RATIO = 16;
/** One sample per STEP scores. */
const STEP = 8;
/** The kept list's room, in results asked for; a floor that lets more through is given up. */
const KEPT_ROOM = 8;

/** Indices (ascending) of the scores at or above a sampled floor, when there are at least `k` and room for them. */
function aboveFloor(scores: Float32Array, n: number, k: number): Int32Array | undefined {
  const samples = new Float32Array(Math.ceil(n / STEP));
  let m = 0;
  for (let i = 0; i < n; i += STEP) {
    const score = scores[i] as number;
    samples[m++] = score === score ? score : Number.NEGATIVE_INFINITY;
  }
  const rank = Math.min(m, Math.ceil((2 * k) / STEP));
  const floor = selectDescending(samples, m, rank - 1);
  if (!(floor > Number.NEGATIVE_INFINITY)) return undefined;
  const room = k * KEPT_ROOM;
  const kept = new Int32Array(room);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if ((scores[i] as number) >= floor) {
      if (count === room) return undefined;
      kept[count++] = i;
    }
  }
  return count >= k ? kept.subarray(0, count) : undefined;
}

/** The value that would stand at `at` (0-based) if `values[0..m)` were sorted in descending order; reorders them. */
function selectDescending(values: Float32Array, m: number, at: number): number {
  let lo = 0;
  let hi = m - 1;
  while (lo < hi) {
    // Middle of three as the pivot, so sorted or constant input cannot make it quadratic.
    const a = values[lo] as number;
    const b = values[(lo + hi) >> 1] as number;
    const c = values[hi] as number;
    const pivot = a > b ? (b > c ? b : a > c ? c : a) : a > c ? a : b > c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] as number) > pivot) i++;
      while ((values[j] as number) < pivot) j--;
      if (i <= j) {
        const swap = values[i] as number;
        values[i] = values[j] as number;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (at <= j) hi = j;
    else if (at >= i) lo = i;
    else return values[at] as number;
  }
  return values[lo] as number;
}

/**
 * The best `k` of `n` indices — `subset[0..n)`, or 0..n-1 without one —, best first. A size-k min-heap: O(n log k);
 * once it is full, a candidate below the heap's worst score is dropped by one comparison with a cached floor,
 * without a call.
 */
function heapTopK(
  scores: Float32Array,
  subset: Int32Array | undefined,
  n: number,
  k: number,
  tieKey: (index: number) => number,
): number[] {
  const size = Math.min(k, n);
  const heap = new Int32Array(size);
  let count = 0;
  // `worse(a, b)`: a ranks below b.
  const worse = (a: number, b: number): boolean => {
    const sa = scores[a] as number;
    const sb = scores[b] as number;
    return sa < sb || (sa === sb && tieKey(a) > tieKey(b));
  };
  const siftDown = (from: number): void => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= count) return;
      const right = left + 1;
      let child = left;
      if (right < count && worse(heap[right] as number, heap[left] as number)) child = right;
      if (!worse(heap[child] as number, heap[at] as number)) return;
      const swap = heap[at] as number;
      heap[at] = heap[child] as number;
      heap[child] = swap;
      at = child;
    }
  };
  let i = 0;
  for (; i < n && count < size; i++) {
    heap[count] = subset ? (subset[i] as number) : i;
    count++;
    let at = count - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(heap[at] as number, heap[parent] as number)) break;
      const swap = heap[at] as number;
      heap[at] = heap[parent] as number;
      heap[parent] = swap;
      at = parent;
    }
  }
  // The heap is full: its root is the worst kept score, and only a score at or above it can enter.
  let floor = scores[heap[0] as number] as number;
  for (; i < n; i++) {
    const index = subset ? (subset[i] as number) : i;
    const score = scores[index] as number;
    if (score < floor || !(score === score)) continue;
    if (worse(heap[0] as number, index)) {
      heap[0] = index;
      siftDown(0);
      floor = scores[heap[0] as number] as number;
    }
  }
  return Array.from(heap.subarray(0, count)).sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
