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

  async embed(texts: readonly string[], _kind?: 'query' | 'document'): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): Float32Array {
    // feature hash → occurrences, and → base weight. Hashing straight from the text avoids building feature strings.
    const counts = new Map<number, number>();
    const weights = new Map<number, number>();
    const add = (hash: number, weight: number) => {
      const seen = counts.get(hash);
      if (seen === undefined) {
        counts.set(hash, 1);
        weights.set(hash, weight);
      } else counts.set(hash, seen + 1);
    };

    for (const term of analyzeForIndex(text).split(' ')) {
      if (term) add(fnv1a(term, 0, term.length, TERM_SEED), STOPWORDS.has(term) ? STOPWORD_WEIGHT : 1);
    }
    for (const word of text.toLowerCase().match(WORD) ?? []) {
      if (word.length < 3 || STOPWORDS.has(word)) continue;
      const marked = `^${word}$`;
      for (let i = 0; i + 3 <= marked.length; i++) add(fnv1a(marked, i, i + 3, TRIGRAM_SEED), TRIGRAM_WEIGHT);
    }

    const vector = new Float32Array(this.dimension);
    for (const [hash, occurrences] of counts) {
      const bucket = (hash & 0x7fffffff) % this.dimension;
      const sign = hash & 0x80000000 ? -1 : 1;
      vector[bucket] = (vector[bucket] as number) + sign * (weights.get(hash) as number) * (1 + Math.log(occurrences));
    }
    return normalizeInPlace(vector);
  }
}

export const DEFAULT_DIMENSION = 512;
const TRIGRAM_WEIGHT = 0.5;
const STOPWORD_WEIGHT = 0.1;
const WORD = /[\p{L}\p{N}]+/gu;

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

/** Function words (raw and Porter-stemmed forms): without corpus statistics they would dominate every vector. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do doe does for from had ha has have he her hi his how i if in into ' +
    'is it it\u2019s its me more most my no not of on or our she so such than that the their them then there these they thi ' +
    'this those to too us wa was we were what when where which while who whom why will with would you your also onli only ' +
    'veri very other ani any all both each few some same own just'
  ).split(' '),
);
