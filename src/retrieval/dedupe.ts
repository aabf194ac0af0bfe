import type { ChannelName } from '../domain/index.ts';
import { type StoredShingles, storedShingles } from '../text/analysed-form.ts';
import { inheritChannels, mayGiveEvidence } from './dedupe-channels.ts';
import { dedupeStoredLoop, storedFormsServe } from './dedupe-stored.ts';
import type { FusedCandidate } from './fuse.ts';
import { hashOfKey, mix, ShingleSets, WORD_ID_LIMIT } from './shingle-sets.ts';

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
  /**
   * A candidate's stored analysed form (text/analysed-form.ts), when the store keeps one: with a form for every
   * candidate that has text, its shingle hashes stand in for reading the texts (the same result; see dedupe-stored.ts).
   */
  formOf?: (chunkId: string) => Uint8Array | undefined;
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

  const collapsed = new Map<string, string>();
  const keep = options.keep ?? Number.POSITIVE_INFINITY;
  const stored =
    options.formOf && storedFormsServe(threshold, size) ? formsOf(merged, textOf, options.formOf) : undefined;
  if (stored) {
    const kept = dedupeStoredLoop(
      merged.values(),
      textOf,
      (id) => stored.get(id) as StoredShingles,
      threshold,
      keep,
      collapsed,
    );
    return { kept, collapsed };
  }

  const kept: FusedCandidate[] = [];
  const keptText: { words: Int32Array | undefined; shingles: Int32Array }[] = [];
  const wordIds = WORD_TABLE;
  wordIds.reset();
  const sets = SHINGLE_SETS;
  sets.begin();
  const longShingles = new Map<string, number>();
  // Prefix filter: a kept text is indexed under its shingles of smallest id, as many as a twin at the threshold must
  // share one of (see prefixLength); a new text only meets the kept ones that share one with its own.
  const filtered = threshold > 0;
  for (const candidate of merged.values()) {
    const full = kept.length >= keep;
    // Past the wanted survivors, only a candidate with a channel some of them lack can change them.
    if (full && !mayGiveEvidence(candidate, kept)) continue;
    const text = textOf(candidate.chunkId);
    if (text === undefined) {
      if (full) continue;
      kept.push(candidate);
      keptText.push({ words: undefined, shingles: new Int32Array(0) });
      continue;
    }
    const words = wordIdsOf(text, wordIds);
    const shingles = shingleIdsOf(words, size, longShingles, sets);
    const matches = (index: number): boolean => {
      const other = keptText[index] as (typeof keptText)[number];
      return (
        other.words !== undefined &&
        other.words.length > 0 &&
        (sameWords(other.words, words) || sets.sharesAtLeast(other.shingles, shingles, threshold))
      );
    };
    const prefix = filtered && shingles.length > 0 ? sets.prefix(shingles, threshold) : undefined;
    let twin = -1;
    if (prefix) twin = sets.firstTwin(prefix, matches);
    else if (!filtered) for (let i = 0; i < keptText.length && twin < 0; i++) if (matches(i)) twin = i;
    if (twin >= 0) {
      const keeper = kept[twin] as FusedCandidate;
      collapsed.set(candidate.chunkId, keeper.chunkId);
      inheritChannels(keeper, candidate);
      continue;
    }
    if (full) continue;
    if (prefix && words.length > 0) sets.index(prefix, kept.length);
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
  // ASCII text is its own NFKC form: its words are read straight from the char codes, lowercased one by one.
  return asciiWordIds(text, wordIds) ?? normalizedWordIds(text.normalize('NFKC').toLowerCase(), wordIds);
}

/** Per UTF-16 code unit: 0 not yet known, 1 a letter or digit (`[\p{L}\p{N}]`), 2 neither. */
const WORD_UNIT = new Uint8Array(65536);
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * The runs of `[\p{L}\p{N}]` of normalised text, interned: what `match(/[\p{L}\p{N}]+/gu)` finds. Each code unit's
 * class is looked up once per process; text with a surrogate pair (a character outside the BMP) takes the regex.
 */
function normalizedWordIds(text: string, wordIds: WordTable): Int32Array {
  let ids = scratchIds;
  let count = 0;
  let start = -1;
  let hash = FNV_OFFSET;
  const length = text.length;
  for (let i = 0; i <= length; i++) {
    const code = i < length ? text.charCodeAt(i) : 0;
    if (code >= 0xd800 && code <= 0xdfff) return regexWordIds(text, wordIds);
    let unit = WORD_UNIT[code] as number;
    if (unit === 0) {
      unit = WORD_CHAR.test(String.fromCharCode(code)) ? 1 : 2;
      WORD_UNIT[code] = unit;
    }
    if (unit === 1 && i < length) {
      if (start < 0) {
        start = i;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ code, FNV_PRIME);
      continue;
    }
    if (start < 0) continue;
    if (count === ids.length) {
      const grown = new Int32Array(ids.length * 2);
      grown.set(ids);
      scratchIds = ids = grown;
    }
    ids[count++] = wordIds.intern(text, start, i, hash, false);
    start = -1;
  }
  return ids.slice(0, count);
}

function regexWordIds(text: string, wordIds: WordTable): Int32Array {
  const words = text.match(WORDS) ?? [];
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    let hash = FNV_OFFSET;
    for (let k = 0; k < word.length; k++) hash = Math.imul(hash ^ word.charCodeAt(k), FNV_PRIME);
    ids[i] = wordIds.intern(word, 0, word.length, hash, false);
  }
  return ids;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Scratch for the ids of the text being read; each text's list is copied out at its length. */
let scratchIds = new Int32Array(1024);

/**
 * The runs of [a-z0-9] of an ASCII text as if lowercased, interned: what `toLowerCase().match(/[a-z0-9]+/g)` finds,
 * in one pass that hashes each word as it reads it, without the strings. Undefined at the first non-ASCII character.
 */
function asciiWordIds(text: string, wordIds: WordTable): Int32Array | undefined {
  let ids = scratchIds;
  let count = 0;
  let start = -1;
  let hash = FNV_OFFSET;
  const length = text.length;
  for (let i = 0; i <= length; i++) {
    let code = i < length ? text.charCodeAt(i) : 0;
    if (code >= 128) return undefined;
    if (code >= 65 && code <= 90) code |= 32;
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      if (start < 0) {
        start = i;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ code, FNV_PRIME);
      continue;
    }
    if (start < 0) continue;
    if (count === ids.length) {
      const grown = new Int32Array(ids.length * 2);
      grown.set(ids);
      scratchIds = ids = grown;
    }
    ids[count++] = wordIds.intern(text, start, i, hash, true);
    start = -1;
  }
  return ids.slice(0, count);
}

/**
 * The words of one call, each with an id from 1, looked up by the characters of `text[start, end)` without cutting
 * them out: a hash picks the slot (open addressing), the characters decide, so two words share an id exactly when
 * they are equal.
 */
class WordTable {
  /** Per slot: the word's hash and id (0: empty), side by side, so most probes read one cache line. */
  private slots = new Int32Array(2 * 16384);
  private count = 0;
  /** Per id (index 0 unused): the word's characters, lowercased, in `pool`: offset and length. */
  private offsets = new Int32Array(8192);
  private lengths = new Int32Array(8192);
  private pool = new Uint16Array(65536);
  private poolUsed = 0;

  /** Empties the table for a new call (its sizes stay, so a call like the last one grows nothing). */
  reset(): void {
    if (this.count > 0) this.slots.fill(0);
    this.count = 0;
    this.poolUsed = 0;
  }

  /**
   * The id of text[start, end), whose FNV-1a hash (of its lowercased characters) is `hash`; `fold` when the text is
   * ASCII and its letters are to be read lowercased (`code | 32` lowercases A-Z and keeps a-z and 0-9).
   */
  intern(text: string, start: number, end: number, hash: number, fold: boolean): number {
    const length = end - start;
    const bits = fold ? 32 : 0;
    let slots = this.slots;
    let mask = slots.length - 2;
    let slot = (hash << 1) & mask;
    for (; ; slot = (slot + 2) & mask) {
      const id = slots[slot + 1] as number;
      if (id === 0) break;
      if (slots[slot] !== hash || this.lengths[id] !== length) continue;
      const from = this.offsets[id] as number;
      let same = true;
      for (let k = 0; k < length && same; k++) same = this.pool[from + k] === (text.charCodeAt(start + k) | bits);
      if (same) return id;
    }
    const id = ++this.count;
    if (id >= this.offsets.length) {
      this.offsets = grownInt32(this.offsets);
      this.lengths = grownInt32(this.lengths);
    }
    if (this.poolUsed + length > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + length));
      pool.set(this.pool);
      this.pool = pool;
    }
    const at = this.poolUsed;
    for (let k = 0; k < length; k++) this.pool[at + k] = text.charCodeAt(start + k) | bits;
    this.poolUsed += length;
    this.offsets[id] = at;
    this.lengths[id] = length;
    if (id * 4 > slots.length) {
      this.grow();
      slots = this.slots;
      mask = slots.length - 2;
      slot = (hash << 1) & mask;
      while (slots[slot + 1] !== 0) slot = (slot + 2) & mask;
    }
    slots[slot] = hash;
    slots[slot + 1] = id;
    return id;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length - 2;
    for (let from = 0; from < old.length; from += 2) {
      if (old[from + 1] === 0) continue;
      let slot = ((old[from] as number) << 1) & mask;
      while (slots[slot + 1] !== 0) slot = (slot + 2) & mask;
      slots[slot] = old[from] as number;
      slots[slot + 1] = old[from + 1] as number;
    }
    this.slots = slots;
  }
}

function grownInt32(array: Int32Array): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/** One table for every call (calls are synchronous, so never two at once); reset at the start of each. */
const WORD_TABLE = new WordTable();
const SHINGLE_SETS = new ShingleSets();

/** Every candidate's stored shingles, or undefined when one that has text has no readable form. */
function formsOf(
  merged: ReadonlyMap<string, FusedCandidate>,
  textOf: (chunkId: string) => string | undefined,
  formOf: (chunkId: string) => Uint8Array | undefined,
): Map<string, StoredShingles> | undefined {
  const forms = new Map<string, StoredShingles>();
  for (const id of merged.keys()) {
    if (textOf(id) === undefined) continue;
    const form = formOf(id);
    const shingles = form ? storedShingles(form) : undefined;
    if (!shingles) return undefined;
    forms.set(id, shingles);
  }
  return forms;
}

const WORDS = /[\p{L}\p{N}]+/gu;

function sameWords(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A text's distinct shingles as ids of `sets` (first-occurrence order). A shingle's key is a number: its word ids
 * packed 17 bits each (a shorter run padded with 0, which no word id takes), or, past 17 bits or for another shingle
 * size, the negative id of its id list interned in `long`. Two shingles get the same key, so the same id, exactly
 * when their words are the same.
 */
function shingleIdsOf(ids: Int32Array, size: number, long: Map<string, number>, sets: ShingleSets): Int32Array {
  if (ids.length === 0) return new Int32Array(0);
  const count = Math.max(1, ids.length - size + 1);
  if (shingleKeys.length < count) {
    shingleKeys = new Float64Array(Math.max(count, shingleKeys.length * 2));
    shingleHashes = new Int32Array(shingleKeys.length);
  }
  const keys = shingleKeys;
  const hashes = shingleHashes;
  for (let i = 0; i < count; i++) {
    const a = ids[i] as number;
    const b = size > 1 ? (ids[i + 1] ?? 0) : 0;
    const c = size > 2 ? (ids[i + 2] ?? 0) : 0;
    if (size <= 3 && a < WORD_ID_LIMIT && b < WORD_ID_LIMIT && c < WORD_ID_LIMIT) {
      keys[i] = (a * WORD_ID_LIMIT + b) * WORD_ID_LIMIT + c;
      hashes[i] = mix(a, b, c);
    } else {
      const key = -internLong(ids.subarray(i, i + size).join(','), long);
      keys[i] = key;
      hashes[i] = hashOfKey(key);
    }
  }
  return sets.read(keys, hashes, count);
}

/** Scratch for a text's shingle keys and their hashes. */
let shingleKeys = new Float64Array(1024);
let shingleHashes = new Int32Array(1024);

function internLong(key: string, ids: Map<string, number>): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = ids.size + 1;
    ids.set(key, id);
  }
  return id;
}
