import { analyzeForIndex } from '../../text/analyzer.ts';
import type { Embedder } from '../embedder.ts';
import { normalizeInPlace } from '../unit-vector.ts';

/**
 * An embedder that needs no weights: signed feature hashing of analysed terms and character trigrams.
 *
 * It is LEXICAL, not semantic: two texts are close when they share words, stems or spelling fragments, not when
 * they mean the same thing in other words. It exists so that the vector channel, the store and the embedding cache
 * work with nothing downloaded, and it gives a little fuzziness (typos, inflections, compounds) that exact BM25
 * lacks. Configure `transformers:`, `ollama:` or `openai:` for semantic search.
 *
 * Features: each analysed term (weight 1) and each character trigram of each word with `^`/`$` boundary marks
 * (weight {@link TRIGRAM_WEIGHT}); common English function words are down-weighted since there is no corpus IDF.
 * Per-feature weight is sublinear (1 + ln tf); the bucket and the sign come from two halves of one 32-bit hash,
 * so collisions cancel rather than add up on average. Vectors are L2-normalised; output is deterministic.
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly semantic = false;
  readonly cacheInStore = false;
  readonly batchSize = 256;

  constructor(readonly dimension: number = DEFAULT_DIMENSION) {
    if (!Number.isInteger(dimension) || dimension < 16 || dimension > 4096) {
      throw new RangeError(`dimension must be an integer in 16..4096, got ${dimension}`);
    }
    this.id = `offline-hash-v1-${dimension}`;
  }

  /** This embedder is a pure function of the text and its dimension: a worker thread builds the same one from this. */
  get workerSpec(): string {
    return `offline:${this.dimension}`;
  }

  async embed(texts: readonly string[], _kind?: 'query' | 'document'): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  /** `embed` for texts whose `analyzeForIndex` the caller has already (ingestion): the same vectors, one analysis fewer. */
  async embedAnalysed(texts: readonly string[], analysed: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text, i) => this.embedOne(text, analysed[i]));
  }

  embedOne(text: string, analysed: string = analyzeForIndex(text)): Float32Array {
    // Features in first-seen order with their occurrences and base weight: the vector is summed in that order, so
    // it stays bit for bit what it was when these were Maps. Hashing straight from the text builds no feature strings.
    const features = this.features.reset(analysed.length + 3 * text.length);
    for (const term of analysed.split(' ')) {
      if (term) features.add(fnv1a(term, 0, term.length, TERM_SEED), STOPWORDS.has(term) ? STOPWORD_WEIGHT : 1);
    }
    // The words of the lowercased text (runs of letters and digits, as /[\p{L}\p{N}]+/gu finds them), scanned in
    // place: no array of words, no slices but for the few short enough to be stopwords.
    const lower = text.toLowerCase();
    for (let at = 0; at < lower.length; ) {
      const first = wordUnitsAt(lower, at);
      if (first === 0) {
        at += 1;
        continue;
      }
      const start = at;
      at += first;
      for (let units = wordUnitsAt(lower, at); units > 0; units = wordUnitsAt(lower, at)) at += units;
      const length = at - start;
      if (length < 3 || (length <= MAX_STOPWORD_LENGTH && STOPWORDS.has(lower.slice(start, at)))) continue;
      // The trigrams of `^word$`.
      for (let i = 0; i + 3 <= length + 2; i++)
        features.add(markedTrigramHash(lower, start, length, i), TRIGRAM_WEIGHT);
    }

    const vector = new Float32Array(this.dimension);
    const { hashes, counts, weights } = features;
    for (let f = 0; f < features.size; f++) {
      const hash = hashes[f] as number;
      const bucket = (hash & 0x7fffffff) % this.dimension;
      const sign = hash & 0x80000000 ? -1 : 1;
      vector[bucket] = (vector[bucket] as number) + sign * (weights[f] as number) * (1 + Math.log(counts[f] as number));
    }
    return normalizeInPlace(vector);
  }

  private readonly features = new FeatureTable();
}

/**
 * Distinct 32-bit feature hashes in first-seen order, with occurrences and the weight of the first occurrence: an
 * open-addressing table reused across calls (cleared by slot, not refilled), far cheaper than two Maps.
 */
class FeatureTable {
  hashes = new Uint32Array(0);
  counts = new Uint32Array(0);
  weights = new Float64Array(0);
  size = 0;
  /** Slot → feature index + 1 (0: empty); a power of two at least twice the most features a text can have. */
  private slots = new Uint32Array(0);
  private slotOf = new Uint32Array(0);

  /** Empties the table for a text of at most `bound` features. */
  reset(bound: number): this {
    for (let f = 0; f < this.size; f++) this.slots[this.slotOf[f] as number] = 0;
    this.size = 0;
    if (bound + 1 > this.hashes.length) {
      const capacity = 2 ** Math.ceil(Math.log2(bound + 16));
      this.hashes = new Uint32Array(capacity);
      this.counts = new Uint32Array(capacity);
      this.weights = new Float64Array(capacity);
      this.slotOf = new Uint32Array(capacity);
      this.slots = new Uint32Array(capacity * 2);
    }
    return this;
  }

  add(hash: number, weight: number): void {
    const mask = this.slots.length - 1;
    let slot = (Math.imul(hash, 0x9e3779b1) >>> 0) & mask;
    for (;;) {
      const entry = this.slots[slot] as number;
      if (entry === 0) break;
      if (this.hashes[entry - 1] === hash) {
        this.counts[entry - 1] = (this.counts[entry - 1] as number) + 1;
        return;
      }
      slot = (slot + 1) & mask;
    }
    const f = this.size++;
    this.hashes[f] = hash;
    this.counts[f] = 1;
    this.weights[f] = weight;
    this.slotOf[f] = slot;
    this.slots[slot] = f + 1;
  }
}

export const DEFAULT_DIMENSION = 512;
const TRIGRAM_WEIGHT = 0.5;
const STOPWORD_WEIGHT = 0.1;
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;
/** Whether a non-ASCII code point is a letter or digit, as it is met (a text has few distinct ones). */
const wordCharacters = new Map<number, boolean>();

/** The UTF-16 units of the code point at `at` when it is a letter or digit (\p{L}, \p{N}); 0 when it is not. */
function wordUnitsAt(text: string, at: number): number {
  if (at >= text.length) return 0;
  const code = text.charCodeAt(at);
  if (code < 0x80)
    return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) ? 1 : 0;
  const point = text.codePointAt(at) as number;
  let word = wordCharacters.get(point);
  if (word === undefined) {
    word = WORD_CHARACTER.test(String.fromCodePoint(point));
    if (wordCharacters.size < 65_536) wordCharacters.set(point, word);
  }
  return word ? (point > 0xffff ? 2 : 1) : 0;
}

/** Seeds that keep term and trigram features apart (`the` the term vs `the` the trigram). */
const TERM_SEED = 0x811c9dc5;
const TRIGRAM_SEED = 0x050c5d1f;

/** 32-bit FNV-1a over `text[start, end)` UTF-16 code units, with a final avalanche so the top bit (the sign) is well mixed. */
function fnv1a(text: string, start: number, end: number, seed: number): number {
  let hash = seed;
  for (let i = start; i < end; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

/** `fnv1a` of the code units [i, i + 3) of `^word$`, the word being `text[start, start + length)`, without building it. */
function markedTrigramHash(text: string, start: number, length: number, i: number): number {
  let hash = TRIGRAM_SEED;
  for (let k = i; k < i + 3; k++) {
    hash ^= k === 0 ? 0x5e /* ^ */ : k === length + 1 ? 0x24 /* $ */ : text.charCodeAt(start + k - 1);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

/** Function words (raw and Porter-stemmed forms): without corpus statistics they would dominate every vector. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do doe does for from had ha has have he her hi his how i if in into ' +
    'is it it\u2019s its me more most my no not of on or our she so such than that the their them then there these they thi ' +
    'this those to too us wa was we were what when where which while who whom why will with would you your also onli only ' +
    'veri very other ani any all both each few some same own just'
  ).split(' '),
);
const MAX_STOPWORD_LENGTH = Math.max(...[...STOPWORDS].map((word) => word.length));
