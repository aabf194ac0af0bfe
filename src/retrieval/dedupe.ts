import type { ChannelName } from '../domain/index.ts';
import type { FusedCandidate } from './fuse.ts';

export interface DedupeOptions {
  /** Word-shingle Jaccard similarity at or above which two chunks count as the same passage. */
  jaccardThreshold?: number;
  /** Words per shingle. */
  shingleSize?: number;
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
  const wordIds = new Map<string, number>();
  const longShingles = new Map<string, number>();
  for (const candidate of merged.values()) {
    const text = textOf(candidate.chunkId);
    if (text === undefined) {
      kept.push(candidate);
      keptText.push({ words: undefined, shingles: new Float64Array(0) });
      continue;
    }
    const words = wordIdsOf(text, wordIds);
    const shingles = shinglesOf(words, size, longShingles);
    const twin = keptText.findIndex(
      (other) =>
        other.words !== undefined &&
        other.words.length > 0 &&
        (sameWords(other.words, words) || jaccardAtLeast(other.shingles, shingles, threshold)),
    );
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
function wordIdsOf(text: string, wordIds: Map<string, number>): Int32Array {
  const normalized = text.normalize('NFKC').toLowerCase();
  const words = (ASCII_ONLY.test(normalized) ? normalized.match(ASCII_WORDS) : normalized.match(WORDS)) ?? [];
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) ids[i] = internWord(words[i] as string, wordIds);
  return ids;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
/** In ASCII text the letters and digits are these: the same words as WORDS, found faster. */
const ASCII_WORDS = /[a-z0-9]+/g;
const WORDS = /[\p{L}\p{N}]+/gu;

function internWord(word: string, wordIds: Map<string, number>): number {
  let id = wordIds.get(word);
  if (id === undefined) {
    id = wordIds.size + 1;
    wordIds.set(word, id);
  }
  return id;
}

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
        : -internWord(ids.subarray(i, i + size).join(','), long);
  }
  out.sort();
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || out[i] !== out[distinct - 1]) out[distinct++] = out[i] as number;
  return out.subarray(0, distinct);
}

const WORD_ID_LIMIT = 2 ** 17;

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
