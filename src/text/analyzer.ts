/**
 * Keyword analysis shared by every store backend: stores index and match the terms produced here, never raw text.
 *
 * A term contains only lowercase letters, digits, `_`, `$`, `.` and CJK characters, so a backend can keep each term
 * as one token (SQLite FTS5 with `tokenchars '_$.'`, a Postgres `simple` tsvector).
 *
 * - Ordinary words: NFKC, lowercase, diacritics folded, split on non-alphanumerics, Porter-stemmed (`stemmer`).
 *   The index keeps stopwords; a query drops Lucene's English stop set (see QUERY_STOPWORDS).
 * - Abbreviations and initials (`i.e.`, `e.g.`, `A.J.`): their letters only, no compound.
 * - Identifiers: a whitespace-delimited token made of several alphanumeric parts (`CT-2024-0193`, `HIP-3`,
 *   `/v2/orders/{id}`, `order_total_usd`, `v2.1.3`, `alice@example.com`, `$500K`, `1,250.50`) yields a compound
 *   term for the whole identifier IN ADDITION to its parts: `ct_2024_0193` + `ct 2024 0193`. The compound is rare,
 *   so its IDF is high and a query naming the identifier puts the chunk that contains it first, while the parts
 *   keep partial queries (`orders`) working. Compounds join parts with `_`, keep a `.` that sat between two
 *   alphanumerics (versions, domains, decimals), drop thousands separators in numbers (`1250.50`, plus the integer
 *   `1250`), and are never stemmed. A leading `$` is kept (`$500k`) and the bare amount is emitted too (`500k`).
 *   A version `v2.1.3` also yields `2.1.3`. Hyphenated prose (letters joined only by `-` or `'`, e.g.
 *   `state-of-the-art`) is words, not an identifier, and yields its parts only (SciFact train nDCG@10: 0.7013
 *   with this rule, 0.6950 with compounds for prose too; FTS5's own porter tokenizer: 0.6987).
 * - Tokens with digits, and words that are not plain `a-z`, are not stemmed.
 * - Hex values: `0x7a25…` is one term. In a query, a hex value of at least 6 characters (`0x` included), or a
 *   bare hex string of at least 7 characters that mixes digits and letters (commit hashes), becomes a prefix term
 *   (`0x7a25f3*`), so a truncated address still finds the full one.
 * - CJK (Han, Hiragana, Katakana, Hangul) runs: indexed as unigrams and overlapping bigrams; queried as bigrams
 *   (a one-character run as its unigram). No dictionary is needed and mixed text (`使用HIP-3协议`) splits at
 *   script boundaries, each side analysed on its own.
 */
import { stemmer } from 'stemmer';
import { stem } from './stem.ts';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u;
const ALNUM_RUN = /[\p{L}\p{N}]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;
/** Characters that never belong to an identifier at its edges (quotes, brackets, sentence punctuation). */
const EDGE_PUNCT = /^[^\p{L}\p{N}$]+|[^\p{L}\p{N}]+$/gu;
const PLAIN_WORD = /^[a-z]+$/;
const LETTERS_ONLY = /^\p{L}+$/u;
/** Separators allowed in hyphenated prose: only letters, hyphens and apostrophes. */
const PROSE_JOINERS = /^[\p{L}\-'’‐‑–]+$/u;
const NUMBER_WITH_SEPARATORS = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^\d+\.\d+$/;
const VERSION = /^v\d+(?:\.\d+)+$/;
const HEX_0X = /^0x[0-9a-f]{4,}$/;
const HEX_BARE = /^(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}$/;
/** Single letters joined by dots (`i.e.`, `e.g.`, `U.S.A.`, `A.J.`): an abbreviation or initials, not an identifier. */
const ABBREVIATION = /^\p{L}(?:\.\p{L})+\.?$/u;
/**
 * Query-side stopwords: Lucene's English stop set (EnglishAnalyzer's default). Long natural-language queries
 * ("I'd like to find articles on …") otherwise let mid-frequency function words, whose IDF is not clamped, rank
 * documents. Only the query drops them (the index keeps every word, so a phrase-like query still matches), and a
 * query made only of stopwords keeps them. CACM dev nDCG@10 0.4537 → 0.4562, SciFact train 0.7012 → 0.7031.
 */
const QUERY_STOPWORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'
    .split(' ')
    .map((word) => stemmer(word)),
);

type Mode = 'index' | 'query';

const ASCII = /^[\x00-\x7f]*$/;

/**
 * Lowercase, NFKC (full-width → ASCII), diacritics folded. ASCII text is its own NFKC and NFD form and carries no
 * combining marks, so lowercasing is all it needs (most chunks: the four Unicode passes were a fifth of analysis).
 */
function normalize(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKC').toLowerCase().normalize('NFD').replace(COMBINING_MARKS, '').normalize('NFC');
}

/** Plain `a-z` words are Porter-stemmed (cached: stemming dominated analysis time); other parts stay as written. */
function stemWord(part: string): string {
  return PLAIN_WORD.test(part) ? stem(part) : part;
}

function cjkTerms(run: string, mode: Mode, out: string[]): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(chars[0] as string);
    return;
  }
  for (let i = 0; i < chars.length; i++) {
    if (mode === 'index') out.push(chars[i] as string);
    if (i + 1 < chars.length) out.push((chars[i] as string) + (chars[i + 1] as string));
  }
}

/** The compound term of a multi-part token: separators → `_`, a `.` between alphanumerics kept. */
function compoundOf(token: string): string {
  let out = '';
  let pendingSep = '';
  for (const match of token.matchAll(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu)) {
    const piece = match[0];
    if (/^[\p{L}\p{N}]/u.test(piece)) {
      if (out && pendingSep) out += pendingSep === '.' ? '.' : '_';
      out += piece;
      pendingSep = '';
    } else {
      pendingSep = piece;
    }
  }
  return out;
}

/** Terms of one non-CJK token (a whitespace-delimited piece with CJK removed), edges already trimmed. */
function tokenTerms(token: string, mode: Mode, out: string[], identifierParts?: Set<string>): void {
  const dollar = token.startsWith('$');
  const body = dollar ? token.replace(/^\$+/, '') : token;
  if (!body) return;

  if (NUMBER_WITH_SEPARATORS.test(body)) {
    const canonical = body.replace(/,/g, '');
    if (dollar) out.push(`$${canonical}`);
    out.push(canonical);
    const integer = canonical.split('.')[0] as string;
    if (integer !== canonical) out.push(integer);
    return;
  }

  const parts = body.match(ALNUM_RUN) ?? [];
  if (parts.length === 0) return;
  if (parts.length === 1) {
    const only = parts[0] as string;
    if (dollar) out.push(`$${only}`);
    out.push(mode === 'query' && (HEX_0X.test(only) || HEX_BARE.test(only)) ? `${only}*` : stemWord(only));
    return;
  }

  // Hyphenated prose (`state-of-the-art`, `don't`) is words, not an identifier: a compound there only
  // lengthened documents and cost nDCG on SciFact.
  if (!dollar && PROSE_JOINERS.test(body) && parts.every((part) => LETTERS_ONLY.test(part))) {
    for (const part of parts) out.push(stemWord(part));
    return;
  }
  // An abbreviation's compound (`i.e`) is rare, so its high IDF ranked documents that merely say "i.e." (CACM dev
  // nDCG@10 0.4509 → 0.4537, SciFact unchanged); its letters are what FTS5 and readers see.
  if (!dollar && ABBREVIATION.test(body)) {
    for (const part of parts) out.push(stemWord(part));
    return;
  }
  const compound = compoundOf(body);
  if (dollar) out.push(`$${compound}`);
  out.push(compound);
  if (VERSION.test(compound)) out.push(compound.slice(1));
  for (const part of parts) {
    const term = stemWord(part);
    out.push(term);
    identifierParts?.add(term);
  }
}

function analyze(text: string, mode: Mode, identifierParts?: Set<string>): string[] {
  const out: string[] = [];
  for (const raw of normalize(text).split(/\s+/)) {
    if (raw) rawTokenTerms(raw, mode, out, identifierParts);
  }
  return out;
}

/** Terms of one whitespace-delimited token of normalised text: each token is analysed on its own. */
function rawTokenTerms(raw: string, mode: Mode, out: string[], identifierParts?: Set<string>): void {
  // Most tokens are a plain word, perhaps with punctuation at its edges: its one term is its stem (what
  // tokenTerms would make of it, without the identifier and number rules it cannot match).
  if (PLAIN_WORD.test(raw)) {
    out.push(stem(raw));
    return;
  }
  if (!CJK.test(raw)) {
    const token = raw.replace(EDGE_PUNCT, '');
    if (PLAIN_WORD.test(token)) out.push(stem(token));
    else tokenTerms(token, mode, out, identifierParts);
    return;
  }
  for (const segment of raw.split(CJK_RUNS)) {
    if (!segment) continue;
    if (CJK.test(segment)) cjkTerms(segment, mode, out);
    else tokenTerms(segment.replace(EDGE_PUNCT, ''), mode, out, identifierParts);
  }
}

/**
 * What `analyzeForIndex` reads, piece by piece, for callers that scan text themselves: the normalised text (split
 * on `\s+`), and the index terms of one of its tokens.
 */
export const normalizeForIndex = (text: string): string => normalize(text);
export function indexTermsOfToken(normalizedToken: string): string[] {
  const out: string[] = [];
  rawTokenTerms(normalizedToken, 'index', out);
  return out;
}

/** Index-side terms of `text`, joined by single spaces (what a store's keyword index holds). */
export function analyzeForIndex(text: string): string {
  const known = recentlyAnalysed.get(text);
  if (known !== undefined) return known;
  const terms = analyze(text, 'index').join(' ');
  if (recentlyAnalysed.size >= RECENT_LIMIT) recentlyAnalysed.clear();
  recentlyAnalysed.set(text, terms);
  return terms;
}

/**
 * Ingestion analyses each chunk's text twice, for the keyword index and inside the offline embedder; remembering
 * the last texts makes the second time a lookup (analysis was about a third of ingestion time at 100k chunks).
 */
const recentlyAnalysed = new Map<string, string>();
const RECENT_LIMIT = 2048;

/**
 * Query-side terms of `text`, one per occurrence, in query order: what the keyword channel scores. BM25 with query
 * term frequency weighs a word the query repeats by how often it is repeated, as FTS5's bm25() does (it scores every
 * phrase of its query); prose stopwords are left out unless nothing else remains. A term ending in `*` is a prefix.
 * The stores merge repeats into a count, bounded by MAX_QUERY_TERM_COUNT (store/search-terms.ts), where the measurements are.
 */
export function analyzeQueryOccurrences(text: string): string[] {
  // A stopword that is part of an identifier (the `a` of `A-1007`) stays: it is not prose there.
  const identifierParts = new Set<string>();
  const terms = analyze(text, 'query', identifierParts);
  const content = terms.filter((term) => identifierParts.has(term) || !QUERY_STOPWORDS.has(term));
  const kept = content.length > 0 ? content : terms;
  // An identifier's parts are its fallback terms beside the compound (which counts its own repeats): a part the
  // query gives again (`TDP-43 … TDP-43-induced`, `PGE 2 … 15-ket-PGE`) counts once.
  const seenParts = new Set<string>();
  return kept.filter((term) => {
    if (!identifierParts.has(term)) return true;
    if (seenParts.has(term)) return false;
    seenParts.add(term);
    return true;
  });
}

/**
 * Query-side terms of `text`, unique, in order of first appearance (`analyzeQueryOccurrences` without repeats): for
 * callers that match or count distinct terms.
 */
export const analyzeQuery = (text: string): string[] => [...new Set(analyzeQueryOccurrences(text))];

/** Index terms that are never stemmed and are built from letter-and-digit runs of the text as written. */
const LITERAL_TERM = /[0-9_$.]/;
const TERM_JOINERS = /[_$.*]+/;

/**
 * Whether `analyzeForIndex(text)` yields any of `terms` (a trailing `*` makes a term a prefix), answered without
 * analysing the text where it cannot: a term with a digit, `_`, `$` or `.` is never stemmed, and each of its letter
 * and digit runs stands in the normalised text as written (thousands separators aside), so a term one of whose runs is
 * missing from the text is not among its terms. Hybrid search asks this of every candidate for identifier queries.
 */
export function indexTermsInclude(text: string, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  let haystack: string | undefined;
  const possible = terms.filter((term) => {
    if (!LITERAL_TERM.test(term)) return true;
    haystack ??= normalize(text).replaceAll(',', '');
    const normalized = haystack;
    return term.split(TERM_JOINERS).every((run) => run === '' || normalized.includes(run));
  });
  if (possible.length === 0) return false;
  const indexed = analyzeForIndex(text).split(' ');
  const exact = new Set(indexed);
  return possible.some((term) =>
    term.endsWith('*') ? indexed.some((indexedTerm) => indexedTerm.startsWith(term.slice(0, -1))) : exact.has(term),
  );
}
