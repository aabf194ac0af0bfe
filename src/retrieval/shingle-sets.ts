import { prefixLength } from '../text/analysed-form.ts';

/** Prefix filtering's length (defined beside the stored analysed form, whose shingle prefix uses it too). */
export { prefixLength };

/**
 * The word-shingle sets dedupe compares, as small integer ids, and the prefix index that finds which kept texts a new
 * one can be a near-twin of. One dedupe call is one session (`begin`): a shingle gets an id the first time the
 * session meets it, so two texts share a shingle exactly when they share its id, and ids order every shingle of the
 * session the same way (an id, once given, never changes; later shingles get larger ones). That order is all prefix
 * filtering needs.
 *
 * Per text (`read`): its distinct shingle ids, found by a stamp per id (no sort), and, among them, the ones a twin
 * must share one of (the smallest `prefixLength` ids). Its stamp stays on its ids until the next text is read, so
 * `sharesAtLeast` counts what a kept text shares with it in one pass over the kept text's ids.
 */
export class ShingleSets {
  /** Open addressing: per slot the shingle's key, its id, and the session it was set in (else empty). */
  private keys = new Float64Array(1 << 15);
  private ids = new Int32Array(1 << 15);
  private slotSession = new Int32Array(1 << 15);
  private count = 0;
  private session = 0;
  /** Per shingle id: the stamp of the last text read that holds it. */
  private mark = new Int32Array(1 << 14);
  private stamp = 0;
  /** Prefix index per shingle id: the first entry (valid when `headSession` is this session), entries chained. */
  private head = new Int32Array(1 << 14);
  private headSession = new Int32Array(1 << 14);
  private next = new Int32Array(1024);
  private entryText = new Int32Array(1024);
  private entries = 0;
  private scratch = new Int32Array(1024);

  /** Starts a dedupe call: no shingle has an id, no text is indexed. */
  begin(): void {
    this.session = (this.session + 1) | 0;
    if (this.session === 0) {
      this.slotSession.fill(0);
      this.headSession.fill(0);
      this.session = 1;
    }
    this.count = 0;
    this.entries = 0;
  }

  /**
   * The distinct shingle ids of a text whose shingle keys (equal exactly when the shingles are equal) are `keys[i]`,
   * hashed `hashes[i]` (hashOfKey), for i < n, in first-occurrence order; marks them as the current text's.
   */
  read(keys: Float64Array, hashes: Int32Array, n: number): Int32Array {
    this.stamp = (this.stamp + 1) | 0;
    if (this.stamp === 0) {
      this.mark.fill(0);
      this.stamp = 1;
    }
    if (this.scratch.length < n) this.scratch = new Int32Array(Math.max(n, this.scratch.length * 2));
    const out = this.scratch;
    let distinct = 0;
    for (let i = 0; i < n; i++) {
      const id = this.idOf(keys[i] as number, hashes[i] as number);
      if (this.mark[id] === this.stamp) continue;
      this.mark[id] = this.stamp;
      out[distinct++] = id;
    }
    return out.slice(0, distinct);
  }

  /**
   * Whether `kept` (a text read earlier this session) and the text read last have a Jaccard similarity of at least
   * `threshold`; `current` is the last text's id list. Sizes alone rule most pairs out; the count stops once the
   * shared ids can no longer get there.
   */
  sharesAtLeast(kept: Int32Array, current: Int32Array, threshold: number): boolean {
    if (kept.length === 0 || current.length === 0) return false;
    const small = Math.min(kept.length, current.length);
    const large = Math.max(kept.length, current.length);
    if (small < threshold * large) return false;
    // shared / (|a| + |b| − shared) ≥ t  ⇔  shared ≥ t (|a| + |b|) / (1 + t)
    const needed = (threshold * (kept.length + current.length)) / (1 + threshold);
    let shared = 0;
    for (let i = 0; i < kept.length; i++) {
      if (shared + (kept.length - i) < needed) return false;
      if (this.mark[kept[i] as number] === this.stamp) shared++;
    }
    return shared >= needed;
  }

  /** The ids of `ids` a near-twin at `threshold` must share one of: its `prefixLength` smallest. */
  prefix(ids: Int32Array, threshold: number): Int32Array {
    const k = prefixLength(ids.length, threshold);
    const best = new Int32Array(k);
    let size = 0;
    // Insertion into a sorted buffer of the k smallest: a text's new shingles arrive in increasing id order, so once
    // the buffer is full most ids are passed over on one comparison.
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (size === k && id >= (best[k - 1] as number)) continue;
      let at = size < k ? size++ : k - 1;
      while (at > 0 && (best[at - 1] as number) > id) {
        best[at] = best[at - 1] as number;
        at--;
      }
      best[at] = id;
    }
    return best;
  }

  /** Indexes kept text `text` under its prefix ids. */
  index(prefix: Int32Array, text: number): void {
    for (let i = 0; i < prefix.length; i++) {
      const id = prefix[i] as number;
      if (this.entries === this.next.length) {
        this.next = grown(this.next);
        this.entryText = grown(this.entryText);
      }
      const entry = this.entries++;
      this.entryText[entry] = text;
      this.next[entry] = this.headSession[id] === this.session ? (this.head[id] as number) : -1;
      this.head[id] = entry;
      this.headSession[id] = this.session;
    }
  }

  /** The lowest indexed text sharing one of `prefix`'s ids that `matches` accepts, or −1. */
  firstTwin(prefix: Int32Array, matches: (text: number) => boolean): number {
    const found: number[] = [];
    for (let i = 0; i < prefix.length; i++) {
      const id = prefix[i] as number;
      if (this.headSession[id] !== this.session) continue;
      for (let entry = this.head[id] as number; entry >= 0; entry = this.next[entry] as number)
        found.push(this.entryText[entry] as number);
    }
    if (found.length === 0) return -1;
    found.sort((a, b) => a - b);
    for (let i = 0; i < found.length; i++) {
      const text = found[i] as number;
      if (i > 0 && text === found[i - 1]) continue;
      if (matches(text)) return text;
    }
    return -1;
  }

  private idOf(key: number, hash: number): number {
    let mask = this.keys.length - 1;
    let slot = hash & mask;
    for (; this.slotSession[slot] === this.session; slot = (slot + 1) & mask)
      if (this.keys[slot] === key) return this.ids[slot] as number;
    const id = this.count++;
    if (id >= this.mark.length) {
      this.mark = grown(this.mark);
      this.head = grown(this.head);
      this.headSession = grown(this.headSession);
    }
    if (this.count * 2 > this.keys.length) {
      this.grow();
      mask = this.keys.length - 1;
      slot = hash & mask;
      while (this.slotSession[slot] === this.session) slot = (slot + 1) & mask;
    }
    this.keys[slot] = key;
    this.ids[slot] = id;
    this.slotSession[slot] = this.session;
    return id;
  }

  /** Doubles the table (keys rehashed by the hash their key gives: `hashOfKey`). */
  private grow(): void {
    const { keys, ids, slotSession } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.ids = new Int32Array(keys.length * 2);
    this.slotSession = new Int32Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let from = 0; from < keys.length; from++) {
      if (slotSession[from] !== this.session) continue;
      const key = keys[from] as number;
      let slot = hashOfKey(key) & mask;
      while (this.slotSession[slot] === this.session) slot = (slot + 1) & mask;
      this.keys[slot] = key;
      this.ids[slot] = ids[from] as number;
      this.slotSession[slot] = this.session;
    }
  }
}

/**
 * The hash of a shingle key: a packed key (word ids a, b, c below 2^17: (a·2^17 + b)·2^17 + c) is hashed from its
 * three ids; any other key (a negative id of an interned id list) from its value. `read`'s `hashOf` must agree.
 */
export function hashOfKey(key: number): number {
  if (key < 0) return mix(-key, 0x2545f491, 0);
  const c = key % WORD_ID_LIMIT;
  const ab = (key - c) / WORD_ID_LIMIT;
  const b = ab % WORD_ID_LIMIT;
  return mix((ab - b) / WORD_ID_LIMIT, b, c);
}

/** The hash of the packed key of word ids a, b, c (see hashOfKey). */
export function mix(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

/** Word ids below this pack three to a shingle key. */
export const WORD_ID_LIMIT = 2 ** 17;

function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(array.length * 2);
  out.set(array);
  return out;
}
