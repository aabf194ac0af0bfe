/**
 * A chunk's analysed form: what a search's dedupe and offline rerank read of a candidate, computed once at ingestion
 * and stored beside the chunk (SQLite `chunks.analysed`), so that a search reads no candidate's text. One byte string:
 *
 * - version byte ({@link ANALYSED_FORM_VERSION}); a form of another version is not read (the text is, instead);
 * - dedupe: the number of distinct word 3-shingles of the chunk's text (words as dedupe reads them: NFKC, lowercase,
 *   runs of letters and digits), then the smallest distinct 32-bit hashes of those shingles, ascending — as many as a
 *   near-twin at Jaccard ≥ {@link STORED_PREFIX_THRESHOLD} must share one of (prefix filtering, {@link prefixLength}
 *   of the true shingle count). A hash is only a filter: dedupe confirms every pair on the texts;
 * - rerank: the chunk's index terms (`analyzeForIndex(chunkSearchText(chunk))`, what the keyword index holds) as a
 *   dictionary of its distinct terms, UTF-8, space-separated, in order of first occurrence, then the term sequence
 *   as indexes into it (1, 2 or 4 bytes each). The reranker's query-term positions are read from it exactly.
 *
 * Varints are unsigned LEB128; the hashes are little-endian uint32.
 */
import type { TermPositions } from './query-term-positions.ts';

export const ANALYSED_FORM_VERSION = 1;
/** Words per dedupe shingle the stored hashes are of (dedupe's default). */
export const STORED_SHINGLE_SIZE = 3;
/** The lowest dedupe threshold the stored shingle prefix serves (dedupe's default, 0.9). */
export const STORED_PREFIX_THRESHOLD = 0.9;

/**
 * How many of a shingle set's smallest entries (in one order every set shares) two sets at Jaccard ≥ t must share one
 * of: |x ∩ y| ≥ t·|x ∪ y| ≥ t·|x|, and two sets sharing α entries share one among each one's first |x| − α + 1
 * (prefix filtering). Rounded towards a longer prefix, which is always safe.
 */
export function prefixLength(size: number, threshold: number): number {
  const overlap = Math.ceil(threshold * size - 1e-9);
  return Math.min(size, Math.max(1, size - overlap + 2));
}

const ASCII = /^[\x00-\x7f]*$/;
const WORDS = /[\p{L}\p{N}]+/gu;

/** The words dedupe compares: NFKC, lowercase, the runs of letters and digits (`[\p{L}\p{N}]+`). */
export function dedupeWords(text: string): string[] {
  const lower = ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKC').toLowerCase();
  return lower.match(WORDS) ?? [];
}

/**
 * The distinct word shingles of `words` as strings (the words joined by U+0001; a text shorter than `size` words is
 * one shingle of what it has): two shingles are the same string exactly when their words are the same.
 */
export function dedupeShingles(words: readonly string[], size: number): Set<string> {
  const shingles = new Set<string>();
  if (words.length === 0) return shingles;
  const count = Math.max(1, words.length - size + 1);
  for (let i = 0; i < count; i++) {
    let key = words[i] as string;
    for (let k = 1; k < size; k++) key += `\u0001${words[i + k] ?? ''}`;
    shingles.add(key);
  }
  return shingles;
}

/** FNV-1a of the key's UTF-16 code units, then murmur3's finaliser: a 32-bit unsigned hash. */
export function shingleHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The analysed form of a chunk whose text is `text` and whose index terms are `keywordText`
 * (`analyzeForIndex(chunkSearchText(chunk))`, what ingestion indexes: the writer passes it, a backfill computes it).
 */
export function encodeAnalysedForm(text: string, keywordText: string): Uint8Array {
  const out = new ByteWriter(64 + keywordText.length * 2);
  out.byte(ANALYSED_FORM_VERSION);

  const shingles = dedupeShingles(dedupeWords(text), STORED_SHINGLE_SIZE);
  const hashes = new Uint32Array(shingles.size);
  let i = 0;
  for (const key of shingles) hashes[i++] = shingleHash(key);
  hashes.sort();
  // The first p shingles in (hash, anything) order have their hashes among the p smallest distinct hashes.
  const wanted = shingles.size === 0 ? 0 : prefixLength(shingles.size, STORED_PREFIX_THRESHOLD);
  const prefix: number[] = [];
  for (let k = 0; k < hashes.length && prefix.length < wanted; k++)
    if (k === 0 || hashes[k] !== hashes[k - 1]) prefix.push(hashes[k] as number);
  out.varint(shingles.size);
  out.varint(prefix.length);
  for (const hash of prefix) out.uint32(hash);

  const indexOf = new Map<string, number>();
  const distinct: string[] = [];
  const sequence: number[] = [];
  for (const term of keywordText.split(' ')) {
    if (term === '') continue;
    let index = indexOf.get(term);
    if (index === undefined) {
      index = distinct.length;
      indexOf.set(term, index);
      distinct.push(term);
    }
    sequence.push(index);
  }
  const dictionary = ENCODER.encode(distinct.join(' '));
  out.varint(distinct.length);
  out.varint(dictionary.length);
  out.bytes(dictionary);
  const width = distinct.length <= 0x100 ? 1 : distinct.length <= 0x10000 ? 2 : 4;
  out.varint(sequence.length);
  out.byte(width);
  for (const index of sequence) out.fixed(index, width);
  return out.finish();
}

const ENCODER = new TextEncoder();

/** A form's dedupe part: the true distinct shingle count and the smallest distinct shingle hashes, ascending. */
export interface StoredShingles {
  count: number;
  prefix: Uint32Array;
}

/** The dedupe part of `form`, or undefined when it is not a form of this version. */
export function storedShingles(form: Uint8Array): StoredShingles | undefined {
  if (form.length === 0 || form[0] !== ANALYSED_FORM_VERSION) return undefined;
  const reader = new ByteReader(form, 1);
  const count = reader.varint();
  const stored = reader.varint();
  const prefix = new Uint32Array(stored);
  for (let i = 0; i < stored; i++) prefix[i] = reader.uint32();
  return { count, prefix };
}

/**
 * A reader of query-term positions from stored forms for one query: `positions(form)` equals
 * `referenceTermPositions(chunkSearchText(chunk), queryTerms)` (same keys in the same order, same positions; a `*`
 * term matches by prefix), or undefined when `form` is not of this version.
 */
export function storedTermMatcher(queryTerms: readonly string[]): (form: Uint8Array) => TermPositions | undefined {
  const wanted = queryTerms.map((term) => {
    const prefix = term.endsWith('*');
    return { term, prefix, bytes: ENCODER.encode(prefix ? term.slice(0, -1) : term) };
  });
  let hits: number[][] = [];
  return (form) => {
    if (form.length === 0 || form[0] !== ANALYSED_FORM_VERSION) return undefined;
    const reader = new ByteReader(form, 1);
    reader.varint();
    reader.skip(reader.varint() * 4);
    const terms = reader.varint();
    const dictionaryLength = reader.varint();
    const dictionary = reader.at;
    reader.skip(dictionaryLength);
    // Which query terms each distinct term is (usually none).
    if (hits.length < terms) hits = Array.from({ length: terms }, () => []);
    let any = false;
    let start = dictionary;
    const end = dictionary + dictionaryLength;
    for (let index = 0; index < terms; index++) {
      let stop = start;
      while (stop < end && form[stop] !== 32) stop++;
      const list = hits[index] as number[];
      list.length = 0;
      for (let q = 0; q < wanted.length; q++) {
        const { bytes, prefix } = wanted[q] as (typeof wanted)[number];
        const length = stop - start;
        if (prefix ? length < bytes.length : length !== bytes.length) continue;
        let same = true;
        for (let k = 0; k < bytes.length && same; k++) same = form[start + k] === bytes[k];
        if (same) {
          list.push(q);
          any = true;
        }
      }
      start = stop + 1;
    }
    const found: TermPositions = new Map();
    if (!any) return found;
    const count = reader.varint();
    const width = reader.byte();
    for (let position = 0; position < count; position++) {
      const list = hits[reader.fixed(width)] as number[];
      for (let k = 0; k < list.length; k++) {
        const term = (wanted[list[k] as number] as (typeof wanted)[number]).term;
        const positions = found.get(term);
        if (positions) positions.push(position);
        else found.set(term, [position]);
      }
    }
    return found;
  };
}

class ByteWriter {
  private buffer: Uint8Array;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = new Uint8Array(capacity);
  }

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }

  varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.byte((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    this.byte(rest);
  }

  uint32(value: number): void {
    this.fixed(value, 4);
  }

  fixed(value: number, width: number): void {
    this.reserve(width);
    for (let k = 0; k < width; k++) this.buffer[this.length++] = (value >>> (8 * k)) & 0xff;
  }

  bytes(values: Uint8Array): void {
    this.reserve(values.length);
    this.buffer.set(values, this.length);
    this.length += values.length;
  }

  finish(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + extra));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

class ByteReader {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
  ) {}

  byte(): number {
    if (this.at >= this.bytes.length) throw new RangeError('analysed form: truncated');
    return this.bytes[this.at++] as number;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  uint32(): number {
    return this.fixed(4);
  }

  fixed(width: number): number {
    if (this.at + width > this.bytes.length) throw new RangeError('analysed form: truncated');
    let value = 0;
    for (let k = 0; k < width; k++) value += (this.bytes[this.at++] as number) * 2 ** (8 * k);
    return value;
  }

  skip(count: number): void {
    this.at += count;
  }
}
