import type { ChannelName } from '../domain/index.ts';
import type { FusedCandidate } from './fuse.ts';

export interface DedupeOptions {
  /** Word-shingle Jaccard similarity at or above which two chunks count as the same passage. */
  jaccardThreshold?: number;
  /** Words per shingle. */
  shingleSize?: number;
  /**
   * Only the first `keep` survivors are wanted (the caller shows or reranks no more). Past them, a candidate is only
   * looked at when it may carry channel evidence over to one of them; `kept` stops at `keep` entries. The first `keep`
   * entries, their channels included, are what a run without the limit gives.
   */
  keep?: number;
}

export interface DedupeResult {
  kept: FusedCandidate[];
  /** Dropped chunk id → the kept chunk id that stands for it. */
  collapsed: Map<string, string>;
}

const DEFAULT_THRESHOLD = 0.9;
const DEFAULT_SHINGLE = 3;

/**
 * Merges repeated chunk ids (keeping each channel's best rank and the best fused score) and collapses near-duplicate
 * passages — identical normalised text, or word-shingle Jaccard ≥ threshold (the same paragraph ingested from two
 * files, a chunk overlapping its copy) — keeping the better-ranked one. Input order is the ranking; output keeps it.
 * `textOf` returns undefined for ids without text (kept, never compared).
 */
export function dedupeCandidates(
  candidates: readonly FusedCandidate[],
  textOf: (chunkId: string) => string | undefined,
  options: DedupeOptions = {},
): DedupeResult {
  const threshold = options.jaccardThreshold ?? DEFAULT_THRESHOLD;
  const size = options.shingleSize ?? DEFAULT_SHINGLE;

  const merged = new Map<string, FusedCandidate>();
  for (const candidate of candidates) {
    const seen = merged.get(candidate.chunkId);
    if (!seen) {
      merged.set(candidate.chunkId, { ...candidate, channels: { ...candidate.channels } });
      continue;
    }
    seen.score = Math.max(seen.score, candidate.score);
    for (const [channel, hit] of Object.entries(candidate.channels) as [
      ChannelName,
      { rank: number; score: number },
    ][]) {
      const current = seen.channels[channel];
      if (!current || hit.rank < current.rank) seen.channels[channel] = { ...hit };
    }
  }

  const kept: FusedCandidate[] = [];
  const keptText: { words: Int32Array | undefined; shingles: Float64Array }[] = [];
  const collapsed = new Map<string, string>();
  const wordIds = new WordTable();
  const longShingles = new Map<string, number>();
  const keep = options.keep ?? Number.POSITIVE_INFINITY;
  // Prefix filter: a kept text is indexed under the first shingles of its sorted list, as many as a twin at the
  // threshold must share one of (see prefixLength); a new text only meets the kept ones that share one with its own.
  const byPrefix = threshold > 0 ? new Map<number, number[]>() : undefined;
  for (const candidate of merged.values()) {
    const full = kept.length >= keep;
    // Past the wanted survivors, only a candidate with a channel some of them lack can change them.
    if (full && !mayGiveEvidence(candidate, kept)) continue;
    const text = textOf(candidate.chunkId);
    if (text === undefined) {
      if (full) continue;
      kept.push(candidate);
      keptText.push({ words: undefined, shingles: new Float64Array(0) });
      continue;
    }
    const words = wordIdsOf(text, wordIds);
    const shingles = shinglesOf(words, size, longShingles);
    const matches = (other: { words: Int32Array | undefined; shingles: Float64Array }): boolean =>
      other.words !== undefined &&
      other.words.length > 0 &&
      (sameWords(other.words, words) || jaccardAtLeast(other.shingles, shingles, threshold));
    const twin = byPrefix
      ? firstTwin(byPrefix, shingles, threshold, (index) => matches(keptText[index] as (typeof keptText)[number]))
      : keptText.findIndex(matches);
    if (twin >= 0) {
      const keeper = kept[twin] as FusedCandidate;
      collapsed.set(candidate.chunkId, keeper.chunkId);
      // The kept passage inherits channel evidence it lacked, so a trace still shows both channels found it.
      for (const [channel, hit] of Object.entries(candidate.channels) as [
        ChannelName,
        { rank: number; score: number },
      ][]) {
        if (!keeper.channels[channel]) keeper.channels[channel] = { ...hit };
      }
      continue;
    }
    if (full) continue;
    if (byPrefix && words.length > 0) {
      const index = kept.length;
      const prefix = prefixLength(shingles.length, threshold);
      for (let i = 0; i < prefix; i++) {
        const shingle = shingles[i] as number;
        const list = byPrefix.get(shingle);
        if (list) list.push(index);
        else byPrefix.set(shingle, [index]);
      }
    }
    kept.push(candidate);
    keptText.push({ words, shingles });
  }
  return { kept, collapsed };
}

/**
 * The text's words as ids interned in `wordIds` (from 1): NFKC, lowercase, the runs of letters and digits (what the
 * regex replace and split did before, without building the spaced copy). Two texts have equal id lists exactly when
 * their normalised texts match.
 */
function wordIdsOf(text: string, wordIds: WordTable): Int32Array {
  // ASCII text is its own NFKC form: its lowercase letters and digits are read straight from the char codes.
  if (ASCII_ONLY.test(text)) return asciiWordIds(text.toLowerCase(), wordIds);
  const words = text.normalize('NFKC').toLowerCase().match(WORDS) ?? [];
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) ids[i] = wordIds.intern(words[i] as string, 0, (words[i] as string).length);
  return ids;
}

/** The runs of [a-z0-9] of a lowercased ASCII text, interned: what `match(/[a-z0-9]+/g)` finds, without the strings. */
function asciiWordIds(text: string, wordIds: WordTable): Int32Array {
  let ids = new Int32Array(Math.max(16, text.length >> 2));
  let count = 0;
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    const word = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (word) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    if (count === ids.length) {
      const grown = new Int32Array(ids.length * 2);
      grown.set(ids);
      ids = grown;
    }
    ids[count++] = wordIds.intern(text, start, i);
    start = -1;
  }
  return ids.subarray(0, count);
}

/**
 * The words of one call, each with an id from 1, looked up by the characters of `text[start, end)` without cutting
 * them out: a hash picks the slot (open addressing), the characters decide, so two words share an id exactly when
 * they are equal.
 */
class WordTable {
  private slots = new Int32Array(4096);
  /** Per id (index 0 unused): the text holding the word's first occurrence, where it starts and ends, its hash. */
  private readonly texts: string[] = [''];
  private readonly starts: number[] = [0];
  private readonly ends: number[] = [0];
  private readonly hashes: number[] = [0];

  intern(text: string, start: number, end: number): number {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot] as number;
      if (id === 0) {
        const created = this.texts.length;
        this.texts.push(text);
        this.starts.push(start);
        this.ends.push(end);
        this.hashes.push(hash);
        this.slots[slot] = created;
        if (created * 2 > this.slots.length) this.grow();
        return created;
      }
      if (this.hashes[id] === hash && this.equals(id, text, start, end)) return id;
    }
  }

  private equals(id: number, text: string, start: number, end: number): boolean {
    const other = this.texts[id] as string;
    const from = this.starts[id] as number;
    if ((this.ends[id] as number) - from !== end - start) return false;
    for (let i = 0; i < end - start; i++) if (other.charCodeAt(from + i) !== text.charCodeAt(start + i)) return false;
    return true;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 1; id < this.hashes.length; id++) {
      let slot = (this.hashes[id] as number) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}

/**
 * How many of a sorted shingle list's first entries two lists at Jaccard ≥ t must share one of: |x ∩ y| ≥ t·|x ∪ y|
 * ≥ t·|x|, and two sorted lists sharing α entries share one among each one's first |x| − α + 1 (prefix filtering).
 * Rounded towards a longer prefix, which is always safe.
 */
function prefixLength(size: number, threshold: number): number {
  const overlap = Math.ceil(threshold * size - 1e-9);
  return Math.min(size, Math.max(1, size - overlap + 2));
}

/** The lowest kept index sharing a prefix shingle with `shingles` that `matches` accepts, or −1. */
function firstTwin(
  byPrefix: Map<number, number[]>,
  shingles: Float64Array,
  threshold: number,
  matches: (index: number) => boolean,
): number {
  if (shingles.length === 0) return -1;
  const prefix = prefixLength(shingles.length, threshold);
  let candidates: number[] | undefined;
  for (let i = 0; i < prefix; i++) {
    const list = byPrefix.get(shingles[i] as number);
    if (list) candidates = candidates ? candidates.concat(list) : [...list];
  }
  if (!candidates) return -1;
  candidates.sort((a, b) => a - b);
  for (let i = 0; i < candidates.length; i++) {
    const index = candidates[i] as number;
    if (i > 0 && index === candidates[i - 1]) continue;
    if (matches(index)) return index;
  }
  return -1;
}

/** Whether `candidate` found by a channel that one of `kept` was not found by. */
function mayGiveEvidence(candidate: FusedCandidate, kept: readonly FusedCandidate[]): boolean {
  for (const channel of Object.keys(candidate.channels) as ChannelName[])
    for (const other of kept) if (!other.channels[channel]) return true;
  return false;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const WORDS = /[\p{L}\p{N}]+/gu;

function sameWords(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A text's distinct shingles, sorted: each shingle a number (its word ids packed 17 bits each; a shorter run padded
 * with 0, which no word id takes), or, past 17 bits or for another shingle size, the negative id of its id list
 * interned in `long`. Two shingles get the same number exactly when their words are the same. Sorted numbers
 * replace sets of joined strings, which were most of a search's own time.
 */
function shinglesOf(ids: Int32Array, size: number, long: Map<string, number>): Float64Array {
  if (ids.length === 0) return new Float64Array(0);
  const count = Math.max(1, ids.length - size + 1);
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const a = ids[i] as number;
    const b = size > 1 ? (ids[i + 1] ?? 0) : 0;
    const c = size > 2 ? (ids[i + 2] ?? 0) : 0;
    out[i] =
      size <= 3 && a < WORD_ID_LIMIT && b < WORD_ID_LIMIT && c < WORD_ID_LIMIT
        ? (a * WORD_ID_LIMIT + b) * WORD_ID_LIMIT + c
        : -internLong(ids.subarray(i, i + size).join(','), long);
  }
  out.sort();
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || out[i] !== out[distinct - 1]) out[distinct++] = out[i] as number;
  return out.subarray(0, distinct);
}

const WORD_ID_LIMIT = 2 ** 17;

function internLong(key: string, ids: Map<string, number>): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = ids.size + 1;
    ids.set(key, id);
  }
  return id;
}

/**
 * Whether the Jaccard similarity of two sorted shingle lists reaches `threshold`. Lists whose sizes alone rule it out
 * are not compared, and the merge stops once the shared count can no longer get there: most candidate pairs are
 * unrelated.
 */
function jaccardAtLeast(a: Float64Array, b: Float64Array, threshold: number): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  if (small.length < threshold * large.length) return false;
  // shared / (|a| + |b| − shared) ≥ t  ⇔  shared ≥ t (|a| + |b|) / (1 + t)
  const needed = (threshold * (a.length + b.length)) / (1 + threshold);
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (shared + Math.min(a.length - i, b.length - j) < needed) return false;
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      shared++;
      i++;
      j++;
      if (shared >= needed) return true;
    } else if (x < y) i++;
    else j++;
  }
  return shared >= needed;
}
