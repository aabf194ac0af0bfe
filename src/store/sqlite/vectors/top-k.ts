/**
 * Indices (into `scores[0..n)`) of the `k` highest scores, best first. Ties go to the lower `tieKey`, so
 * results are deterministic. A size-k min-heap: O(n log k); once it is full, a candidate below the heap's
 * worst score is dropped by one comparison with a cached floor (most of a large scan), without a call.
 */
export function topK(scores: Float32Array, n: number, k: number, tieKey: (index: number) => number): number[] {
  if (k <= 0 || n <= 0) return [];
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
    heap[count] = i;
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
    const score = scores[i] as number;
    if (score < floor || !(score === score)) continue;
    if (worse(heap[0] as number, i)) {
      heap[0] = i;
      siftDown(0);
      floor = scores[heap[0] as number] as number;
    }
  }
  return Array.from(heap.subarray(0, count)).sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
