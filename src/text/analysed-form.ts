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

/** A word's 32-bit hash: FNV-1a of its UTF-16 code units, then murmur3's finaliser. */
export function wordHash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return finalise(h);
}

/**
 * A shingle's 32-bit hash from its words' hashes (a missing word, past the end of a short text, hashes as 0): one
 * function of the words, the same in every chunk, which is all the stored prefix needs.
 */
export function shingleHash(a: number, b: number, c: number): number {
  return finalise(
    Math.imul(a, 0x9e3779b1) ^ Math.imul(b ^ 0x2545f491, 0x85ebca77) ^ Math.imul(c ^ 0x6a09e667, 0xc2b2ae3d),
  );
}

function finalise(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The dedupe part of a text's form: its distinct 3-shingle count (exact: shingles told apart by their words' ids in
 * this text) and each distinct shingle's hash.
 */
function shingleHashes(text: string): { count: number; hashes: Uint32Array } {
  const words = dedupeWords(text);
  if (words.length === 0) return { count: 0, hashes: new Uint32Array(0) };
  const idOf = new Map<string, number>();
  const hashOf: number[] = [0];
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    let id = idOf.get(word);
    if (id === undefined) {
      id = hashOf.length;
      idOf.set(word, id);
      hashOf.push(wordHash(word));
    }
    ids[i] = id;
  }
  const count = Math.max(1, words.length - STORED_SHINGLE_SIZE + 1);
  const packed = hashOf.length <= WORD_ID_SPAN;
  const seen = new Set<number | string>();
  const hashes = new Uint32Array(count);
  let distinct = 0;
  for (let i = 0; i < count; i++) {
    const a = ids[i] as number;
    const b = ids[i + 1] ?? 0;
    const c = ids[i + 2] ?? 0;
    // Three word ids below 2^17 pack exactly into a double below 2^53 (a text of more distinct words: a string key).
    const key = packed ? (a * WORD_ID_SPAN + b) * WORD_ID_SPAN + c : `${a},${b},${c}`;
    if (seen.has(key)) continue;
    seen.add(key);
    hashes[distinct++] = shingleHash(hashOf[a] as number, hashOf[b] as number, hashOf[c] as number);
  }
  return { count: distinct, hashes: hashes.subarray(0, distinct) };
}

const WORD_ID_SPAN = 2 ** 17;

/**
 * The analysed form of a chunk whose text is `text` and whose index terms are `keywordText`
 * (`analyzeForIndex(chunkSearchText(chunk))`, what ingestion indexes: the writer passes it, a backfill computes it).
 */
export function encodeAnalysedForm(text: string, keywordText: string): Uint8Array {
  const out = new ByteWriter(64 + keywordText.length * 2);
  out.byte(ANALYSED_FORM_VERSION);

  const { count, hashes } = shingleHashes(text);
  hashes.sort();
  // The first p shingles in (hash, words) order have their hashes among the p smallest distinct hashes.
  const wanted = count === 0 ? 0 : prefixLength(count, STORED_PREFIX_THRESHOLD);
  const prefix: number[] = [];
  for (let k = 0; k < hashes.length && prefix.length < wanted; k++)
    if (k === 0 || hashes[k] !== hashes[k - 1]) prefix.push(hashes[k] as number);
  out.varint(count);
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
  const dictionary = distinct.join(' ');
  out.varint(distinct.length);
  out.utf8WithLength(dictionary);
  const width = distinct.length <= 0x100 ? 1 : distinct.length <= 0x10000 ? 2 : 4;
  out.varint(sequence.length);
  out.byte(width);
  for (const index of sequence) out.fixed(index, width);
  return out.finish();
}

const ENCODER = new TextEncoder();

/** A form's dedupe part: the true distinct shingle count and the smallest distinct shingle hashes, ascending. */
/** A position's term index in a form: `width` little-endian bytes (1, 2 or 4) at `at`. */
export const termIndexAt = (form: Uint8Array, at: number, width: number): number =>
  width === 1
    ? (form[at] as number)
    : width === 2
      ? (form[at] as number) | ((form[at + 1] as number) << 8)
      : ((form[at] as number) |
          ((form[at + 1] as number) << 8) |
          ((form[at + 2] as number) << 16) |
          ((form[at + 3] as number) << 24)) >>>
        0;

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
  let at = reader.at;
  if (at + stored * 4 > form.length) throw new RangeError('analysed form: truncated');
  const prefix = new Uint32Array(stored);
  for (let i = 0; i < stored; i++, at += 4)
    prefix[i] =
      (form[at] as number) |
      ((form[at + 1] as number) << 8) |
      ((form[at + 2] as number) << 16) |
      ((form[at + 3] as number) << 24);
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
  // Per first byte, the query terms a dictionary term starting with it can be (a bare `*` can be any term).
  const byFirst: number[][] = Array.from({ length: 256 }, () => []);
  wanted.forEach(({ bytes }, q) => {
    if (bytes.length === 0) for (const list of byFirst) list.push(q);
    else (byFirst[bytes[0] as number] as number[]).push(q);
  });
  /** Per distinct term of the form being read: 0, or 1 + the index in `lists` of the query terms it is. */
  let match = new Int32Array(256);
  return (form) => {
    if (form.length === 0 || form[0] !== ANALYSED_FORM_VERSION) return undefined;
    const reader = new ByteReader(form, 1);
    reader.varint();
    reader.skip(reader.varint() * 4);
    const terms = reader.varint();
    const dictionaryLength = reader.varint();
    const dictionary = reader.at;
    reader.skip(dictionaryLength);
    if (match.length < terms) match = new Int32Array(Math.max(terms, match.length * 2));
    const lists: number[][] = [];
    let start = dictionary;
    const end = dictionary + dictionaryLength;
    for (let index = 0; index < terms; index++) {
      let stop = start;
      while (stop < end && form[stop] !== 32) stop++;
      match[index] = 0;
      const candidates = byFirst[form[start] as number] as number[];
      if (stop > start && candidates.length > 0) {
        const length = stop - start;
        let list: number[] | undefined;
        for (let c = 0; c < candidates.length; c++) {
          const q = candidates[c] as number;
          const { bytes, prefix } = wanted[q] as (typeof wanted)[number];
          if (prefix ? length < bytes.length : length !== bytes.length) continue;
          let same = true;
          for (let k = 1; k < bytes.length && same; k++) same = form[start + k] === bytes[k];
          if (same) (list ??= []).push(q);
        }
        if (list) {
          lists.push(list);
          match[index] = lists.length;
        }
      }
      start = stop + 1;
    }
    const found: TermPositions = new Map();
    if (lists.length === 0) return found;
    const count = reader.varint();
    const width = reader.byte();
    let at = reader.at;
    if (at + count * width > form.length) throw new RangeError('analysed form: truncated');
    for (let position = 0; position < count; position++, at += width) {
      const index = termIndexAt(form, at, width);
      const which = match[index] as number;
      if (which === 0) continue;
      const list = lists[which - 1] as number[];
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

  /** `text`'s UTF-8 byte count (a varint), then its bytes. */
  utf8WithLength(text: string): void {
    let ascii = true;
    for (let i = 0; i < text.length && ascii; i++) ascii = text.charCodeAt(i) < 0x80;
    if (!ascii) {
      const bytes = ENCODER.encode(text);
      this.varint(bytes.length);
      this.reserve(bytes.length);
      this.buffer.set(bytes, this.length);
      this.length += bytes.length;
      return;
    }
    this.varint(text.length);
    this.reserve(text.length);
    for (let i = 0; i < text.length; i++) this.buffer[this.length++] = text.charCodeAt(i);
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

  fixed(width: number): number {
    const bytes = this.bytes;
    const at = this.at;
    if (at + width > bytes.length) throw new RangeError('analysed form: truncated');
    this.at = at + width;
    if (width === 1) return bytes[at] as number;
    if (width === 2) return (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
    return (
      ((bytes[at] as number) |
        ((bytes[at + 1] as number) << 8) |
        ((bytes[at + 2] as number) << 16) |
        ((bytes[at + 3] as number) << 24)) >>>
      0
    );
  }

  skip(count: number): void {
    this.at += count;
  }
}
