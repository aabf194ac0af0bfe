/**
 * Where the query's terms stand among a text's index terms: for each query term the text yields, the positions
 * (0-based, in `analyzeForIndex(text)`'s term order) where it does. This is what the offline reranker reads of each
 * candidate; reading it this way costs a fraction of analysing the text and walking the result.
 *
 * ASCII text (most chunks) is scanned from its char codes: a whitespace-delimited token that is one plain word after
 * its edge punctuation is trimmed — what the analyzer turns into exactly one term, its Porter stem — is looked up by
 * its characters in a word table shared by every call, which remembers each word's stem and, per call, whether that
 * stem is a query term; no string is cut and no stem is taken for a word seen before. Any other token (identifiers,
 * numbers, `$` amounts, abbreviations, CJK) is analysed by the analyzer itself, alone: the analyzer reads each
 * whitespace-delimited token of the normalised text on its own, so its terms there are the ones the whole text gives.
 * Text with a non-ASCII character is normalised first, as the analyzer does. Queries with a prefix term
 * (`0x7a25*`) take the reference path: analyse, then walk.
 */
import { analyzeForIndex, indexTermsOfToken, normalizeForIndex } from './analyzer.ts';
import { stem } from './stem.ts';

/** Query term → its positions among the text's index terms, in order; terms in order of first occurrence. */
export type TermPositions = Map<string, number[]>;

/** The definition: `analyzeForIndex(text)` walked term by term; a `*` query term matches by prefix. */
export function referenceTermPositions(text: string, queryTerms: readonly string[]): TermPositions {
  const found: TermPositions = new Map();
  let position = 0;
  for (const term of analyzeForIndex(text).split(' ')) {
    if (term === '') continue;
    for (const queryTerm of queryTerms) {
      const hit = queryTerm.endsWith('*') ? term.startsWith(queryTerm.slice(0, -1)) : term === queryTerm;
      if (hit) record(found, queryTerm, position);
    }
    position++;
  }
  return found;
}

/**
 * A matcher for one query's terms: `positions(text)` equals `referenceTermPositions(text, queryTerms)` (same keys in
 * the same order, same positions), computed from the char codes for ASCII text.
 */
export function queryTermMatcher(queryTerms: readonly string[]): (text: string) => TermPositions {
  if (queryTerms.some((term) => term.endsWith('*'))) return (text) => referenceTermPositions(text, queryTerms);
  const indexOf = new Map<string, number>();
  queryTerms.forEach((term, i) => {
    if (!indexOf.has(term)) indexOf.set(term, i);
  });
  const call = WORDS.beginCall();
  const letters = firstLetters(queryTerms);
  return (text) => scanTermPositions(text, queryTerms, indexOf, call, letters);
}

/**
 * Bit `c − 97` set for each letter c (a–z) a query term starts with. A plain word's Porter stem starts with the word's
 * own first letter, lowercased (every rule of the stemmer keeps a non-empty head of the word, and it turns a leading
 * `y` back), so a plain word whose first letter has no bit here is no query term's stem, and is neither looked up nor
 * stemmed: most words of a text are passed over on their first character.
 */
function firstLetters(queryTerms: readonly string[]): number {
  let bits = 0;
  for (const term of queryTerms) {
    const code = term.charCodeAt(0);
    if (code >= 97 && code <= 122) bits |= 1 << (code - 97);
  }
  return bits;
}

function record(found: TermPositions, queryTerm: string, position: number): void {
  const list = found.get(queryTerm);
  if (list) list.push(position);
  else found.set(queryTerm, [position]);
}

/** Whitespace as `\s` sees it (what the analyzer splits on). */
const isSpace = (code: number): boolean =>
  code === 32 ||
  (code >= 9 && code <= 13) ||
  (code >= 128 &&
    (code === 0xa0 ||
      code === 0x1680 ||
      (code >= 0x2000 && code <= 0x200a) ||
      code === 0x2028 ||
      code === 0x2029 ||
      code === 0x202f ||
      code === 0x205f ||
      code === 0x3000 ||
      code === 0xfeff));
const isLetter = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
const isAlnum = (code: number): boolean => isLetter(code) || (code >= 48 && code <= 57);
const DOLLAR = 36;
const ASCII = /^[\x00-\x7f]*$/;

/** Other tokens' terms, by the normalised token; bounded like the analyzer's own cache. */
const otherTokenTerms = new Map<string, string[]>();
const OTHER_TOKENS_LIMIT = 4096;

function termsOfToken(normalizedToken: string): string[] {
  let terms = otherTokenTerms.get(normalizedToken);
  if (terms === undefined) {
    terms = indexTermsOfToken(normalizedToken);
    if (otherTokenTerms.size >= OTHER_TOKENS_LIMIT) otherTokenTerms.clear();
    otherTokenTerms.set(normalizedToken, terms);
  }
  return terms;
}

/**
 * The scan. ASCII text is read as written (lowercased per character: for ASCII that is all the normalisation
 * does); other text is normalised first, as the analyzer does, and its tokens with non-ASCII characters are
 * analysed one by one.
 */
function scanTermPositions(
  text: string,
  queryTerms: readonly string[],
  indexOf: ReadonlyMap<string, number>,
  call: number,
  letters: number,
): TermPositions {
  const ascii = ASCII.test(text);
  const source = ascii ? text : normalizeForIndex(text);
  const found: TermPositions = new Map();
  const length = source.length;
  let position = 0;
  let i = 0;
  while (i < length) {
    let code = source.charCodeAt(i);
    if (isSpace(code)) {
      i++;
      continue;
    }
    const tokenStart = i;
    let wide = false;
    while (i < length) {
      code = source.charCodeAt(i);
      if (isSpace(code)) break;
      if (code >= 128) wide = true;
      i++;
    }
    const tokenEnd = i;
    if (!wide) {
      // The analyzer's edge trim: leading characters other than letters, digits and `$`; trailing non-alphanumerics.
      let start = tokenStart;
      while (start < tokenEnd && !isAlnum((code = source.charCodeAt(start))) && code !== DOLLAR) start++;
      let end = tokenEnd;
      while (end > start && !isAlnum(source.charCodeAt(end - 1))) end--;
      let plain = end > start && end - start <= MAX_WORD;
      for (let k = start; plain && k < end; k++) plain = isLetter(source.charCodeAt(k));
      if (plain) {
        if ((letters & (1 << ((source.charCodeAt(start) | 32) - 97))) === 0) {
          position++;
          continue;
        }
        const match = WORDS.match(source, start, end, call, indexOf);
        if (match >= 0) record(found, queryTerms[match] as string, position);
        position++;
        continue;
      }
    }
    const token = source.slice(tokenStart, tokenEnd);
    for (const term of termsOfToken(ascii ? token.toLowerCase() : token)) {
      const match = indexOf.get(term);
      if (match !== undefined) record(found, queryTerms[match] as string, position);
      position++;
    }
  }
  return found;
}

/** Longer plain words are analysed as other tokens (they are rare, and would crowd the table's character pool). */
const MAX_WORD = 48;

/**
 * Plain ASCII words, interned by their lowercased characters in an open-addressing table, each with its stem; for the
 * current call, which query term (if any) the stem is. A slot holds the word's hash, id, and the call and query term
 * of its last answer side by side, so a word seen before costs about one cache line of the table and one of the
 * character pool. Bounded: when the table or its pool is full it starts over, which changes only the cost of the
 * next lookups.
 */
class WordStems {
  private readonly maxWords = 1 << 17;
  /**
   * Per slot: hash, id (0: empty), call of the cached answer, query term index (−1: none). The arrays start small and
   * double as words come (at most half the slots used): a fresh process's first search does not touch megabytes of
   * new memory it does not need (first touches are costly; see CodeLoader).
   */
  private slots = new Int32Array(4096 * SLOT);
  private pool = new Uint8Array(1 << 16);
  private poolUsed = 0;
  private count = 0;
  /** Per id: pool offset << 6 | length (a word is at most MAX_WORD < 64 characters). */
  private where = new Int32Array(4096);
  private readonly stems: string[] = [''];
  private calls = 0;

  /** Starts a call (one query's matcher); returns its number. */
  beginCall(): number {
    this.calls = (this.calls + 1) | 0;
    if (this.calls === 0) {
      for (let slot = 0; slot < this.slots.length; slot += SLOT) this.slots[slot + 2] = 0;
      this.calls = 1;
    }
    return this.calls;
  }

  /** The index in `indexOf` of the stem of the plain word text[start, end), or −1; remembered for the latest call. */
  match(text: string, start: number, end: number, call: number, indexOf: ReadonlyMap<string, number>): number {
    const slot = this.slotOf(text, start, end);
    const slots = this.slots;
    if (call === this.calls && slots[slot + 2] === call) return slots[slot + 3] as number;
    const index = indexOf.get(this.stems[slots[slot + 1] as number] as string) ?? -1;
    // Only the latest call's answers are kept: a matcher still used after another began looks its words up each time.
    if (call === this.calls) {
      slots[slot + 2] = call;
      slots[slot + 3] = index;
    }
    return index;
  }

  /** The slot of the word text[start, end), inserted (with its stem) if new. */
  private slotOf(text: string, start: number, end: number): number {
    let hash = 0x811c9dc5;
    for (let k = start; k < end; k++) hash = Math.imul(hash ^ (text.charCodeAt(k) | 32), 0x01000193);
    const length = end - start;
    const slots = this.slots;
    const mask = slots.length / SLOT - 1;
    let slot = (hash & mask) * SLOT;
    for (; slots[slot + 1] !== 0; slot = (slot + SLOT) & (slots.length - 1)) {
      if (slots[slot] === hash && this.sameChars(slots[slot + 1] as number, text, start, length)) return slot;
    }
    if (this.count + 1 >= this.maxWords || this.poolUsed + length > this.maxWords * 12) this.clear();
    if ((this.count + 1) * 2 > slots.length / SLOT) this.growSlots();
    if (this.poolUsed + length > this.pool.length) {
      const pool = new Uint8Array(this.pool.length * 2);
      pool.set(this.pool.subarray(0, this.poolUsed));
      this.pool = pool;
    }
    if (this.count + 1 >= this.where.length) {
      const where = new Int32Array(this.where.length * 2);
      where.set(this.where);
      this.where = where;
    }
    if (this.slots !== slots || this.count === 0) slot = this.freeSlot(hash);
    const id = ++this.count;
    const at = this.poolUsed;
    for (let k = 0; k < length; k++) this.pool[at + k] = text.charCodeAt(start + k) | 32;
    this.poolUsed += length;
    this.where[id] = (at << 6) | length;
    this.stems[id] = stem(text.slice(start, end).toLowerCase());
    const table = this.slots;
    table[slot] = hash;
    table[slot + 1] = id;
    table[slot + 2] = 0;
    table[slot + 3] = -1;
    return slot;
  }

  /** The first empty slot on `hash`'s probe path. */
  private freeSlot(hash: number): number {
    const slots = this.slots;
    let slot = (hash & (slots.length / SLOT - 1)) * SLOT;
    while (slots[slot + 1] !== 0) slot = (slot + SLOT) & (slots.length - 1);
    return slot;
  }

  private growSlots(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from + 1] === 0) continue;
      const to = this.freeSlot(old[from] as number);
      this.slots.set(old.subarray(from, from + SLOT), to);
    }
  }

  private sameChars(id: number, text: string, start: number, length: number): boolean {
    const where = this.where[id] as number;
    if ((where & 63) !== length) return false;
    const at = where >>> 6;
    for (let k = 0; k < length; k++) if (this.pool[at + k] !== (text.charCodeAt(start + k) | 32)) return false;
    return true;
  }

  private clear(): void {
    this.slots.fill(0);
    this.poolUsed = 0;
    this.count = 0;
    this.stems.length = 1;
  }
}

/** Int32 entries per table slot. */
const SLOT = 4;
const WORDS = new WordStems();
