import { normalizeAnswerText } from './normalize-answer-text.ts';
import { containsAnswerEntry, type AnswerEntry } from './score-answer.ts';
import { firstSentenceEnd } from '../../text/first-sentence.ts';

/**
 * Selective question answering, per case: did the run answer, and if so, is *the* value it gives the gold one? A
 * wrong answer costs more than a refusal, so the reading is strict: the gold must be in the answer's head, and the
 * head must give one value, not a list of candidates of which one happens to be the gold.
 */
export interface SelectiveCase {
  /** What the case expects: an answer with a gold value, a refusal, an answer nobody graded, or nothing at all. */
  expected: 'answer' | 'refuse' | 'answer-ungraded' | null;
  /** Whether the run did not refuse; null for a run stopped for an approval before it answered (not graded). */
  answered: boolean | null;
  /** Answered with the gold as the one value given; null where no verdict applies (no gold, or a correct refusal). */
  right: boolean | null;
  /** Answered, and not right (graded cases only). */
  wrong: boolean | null;
  confidence: number | null;
  /** The value the answer gives: its head's first sentence. */
  head: string | null;
  detail: string;
}

/** Labels the offline strategies append to an answer (`(Offline answer: …)`, `(offline: computed by …)`). */
const LABELS = /\((?:offline answer|offline)\s*:[^)]*\)/gi;
const CITATION = /\[\d+\]/;
/** Words before a full stop that does not end a sentence. */
/** The text up to its first sentence end, without the stop. */
export function firstSentence(text: string): string {
  const end = firstSentenceEnd(text);
  return (end < 0 ? text : text.slice(0, end)).trim();
}

/** The answer's head: the text before its first citation marker `[n]` (else its first sentence), labels removed. */
export function answerHead(answer: string): string {
  const text = answer.replace(LABELS, ' ');
  const marker = text.search(CITATION);
  return (marker >= 0 ? text.slice(0, marker) : firstSentence(text)).replace(/\s+/g, ' ').trim();
}

/** List separators: `,` unless between digits, `;`, `、` (NFKC makes `，；` ASCII), ` or `, ` and `. */
const SEPARATOR = /(?<!\d),|,(?!\d)|[;、]|\s+(?:or|and)\s+/iu;
/** A segment longer than this is a clause of a sentence, not a listed value: a sentence states, a list hedges. */
const LIST_ITEM_WORDS = 5;
const LIST_ITEM_HAN = 10;
const isListItem = (segment: string): boolean =>
  segment.split(/\s+/u).length <= LIST_ITEM_WORDS && (segment.match(/\p{Script=Han}/gu) ?? []).length <= LIST_ITEM_HAN;

const STOPWORDS = new Set(
  (
    'a an the is are was were be been being am of in on at to for from by with as and or but not no nor this that ' +
    'these those it its there their they them he she his her we our you your i my me which what who whom whose when ' +
    'where why how than then so such also about into over under between per each both either any all some more most ' +
    'less very only just can could would should will shall may might must do does did has have had here use used uses ' +
    'using one answer result value total approximately around roughly'
  ).split(' '),
);
/** Chinese function characters that carry no value by themselves. */
const STOP_HAN = new Set([...'的了是在和与及或也都就而有为着把被其之个约共']);

const TOKEN = /\p{Script=Han}+|[\p{L}\p{N}]+(?:[.,]\p{N}+)*/gu;
const stem = (word: string): string => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word);
const tokensOf = (text: string): string[] => normalizeAnswerText(text).match(TOKEN) ?? [];

/** A number with an optional magnitude word (`1m`, `2.5 billion`, `30k`) in normalised text (grouping removed). */
const NUMBER = /(?<![\p{L}\p{N}.])(\d+(?:\.\d+)?)\s?(k|m|b|bn|thousand|million|billion)?(?![\p{L}\p{N}])/gu;
const MAGNITUDE: Readonly<Record<string, number>> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
};
const valueOf = (digits: string, magnitude: string | undefined): number =>
  Number(digits) * (magnitude ? (MAGNITUDE[magnitude] ?? 1) : 1);
const sameValue = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));

/** The value of a gold alternative that is a number alone (`1,000,000`, `110M`), else null. */
function goldNumber(alternative: string): number | null {
  const text = normalizeAnswerText(alternative);
  const match = [...text.matchAll(NUMBER)][0];
  return match && match[0] === text ? valueOf(match[1] as string, match[2]) : null;
}

/** Replaces every number in `text` whose value is one of `values` (`1m` for 1,000,000) by a space. */
const withoutValues = (text: string, values: readonly number[]): string =>
  values.length
    ? text.replace(NUMBER, (span, digits: string, magnitude?: string) =>
        values.some((value) => sameValue(value, valueOf(digits, magnitude))) ? ' ' : span,
      )
    : text;

/**
 * Whether `text` holds the entry: as `containsAnswerEntry` does, or, for a number, as the same value written with a
 * magnitude (`1M steps` gives 1,000,000; `2.5 billion` gives 2,500M).
 */
export function containsGold(text: string, entry: AnswerEntry): boolean {
  if (containsAnswerEntry(text, entry)) return true;
  const values = (typeof entry === 'string' ? [entry] : entry).map(goldNumber).filter((v) => v !== null);
  const normalized = normalizeAnswerText(text);
  return values.length > 0 && withoutValues(normalized, values) !== normalized;
}

/** What a value may be made of without being a value of its own: the gold's and the question's words. */
interface Known {
  gold: readonly string[];
  goldValues: readonly number[];
  words: ReadonlySet<string>;
  han: ReadonlySet<string>;
}

function knownOf(gold: readonly AnswerEntry[], question: string): Known {
  const alternatives = gold.flatMap((entry) => (typeof entry === 'string' ? [entry] : [...entry]));
  const words = new Set<string>();
  const han = new Set<string>();
  for (const token of [...alternatives, question].flatMap(tokensOf)) {
    if (/\p{Script=Han}/u.test(token)) for (const char of token) han.add(char);
    else words.add(stem(token));
  }
  return {
    gold: alternatives.map(normalizeAnswerText).sort((a, b) => b.length - a.length),
    goldValues: alternatives.map(goldNumber).filter((value) => value !== null),
    words,
    han,
  };
}

/** The value tokens of a piece of text that are neither the gold, nor words of the question, nor stopwords. */
function foreignValues(text: string, known: Known): string[] {
  let rest = normalizeAnswerText(text);
  for (const gold of known.gold) if (gold) rest = rest.split(gold).join(' ');
  rest = withoutValues(rest, known.goldValues);
  return (rest.match(TOKEN) ?? []).filter((token) => {
    if (/\p{Script=Han}/u.test(token)) return [...token].some((char) => !known.han.has(char) && !STOP_HAN.has(char));
    if (/^\p{L}$/u.test(token)) return false; // a single letter names a symbol (L=12), not a value
    return !STOPWORDS.has(token) && !known.words.has(stem(token));
  });
}

/** The segments of `lead` that each carry a value of their own (≥ 2 of them: a list of candidates). */
export function candidateSegments(lead: string, gold: readonly AnswerEntry[], question: string): string[] {
  const known = knownOf(gold, question);
  const normalized = lead.normalize('NFKC');
  // Words joined by slashes ("ReLU/GELU/tanh") are a list; a path ("finance/orders-q1.csv") is one name.
  const slashed = /^[\p{L}\s]+(?:\/[\p{L}\s]+)+$/u.test(normalized) ? normalized.replaceAll('/', ', ') : normalized;
  const segments = slashed
    .split(SEPARATOR)
    .map((segment) => segment.trim())
    .filter(Boolean);
  if (!segments.every(isListItem)) return [];
  return segments.filter((segment) => foreignValues(segment, known).length > 0);
}

const quote = (text: string, max = 80): string => `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;

export interface SelectiveInput {
  question: string;
  answerable: boolean | undefined;
  gold: readonly AnswerEntry[] | undefined;
  answerText: string | null;
  /** The run refused (the answerability layer's reading); null when it stopped for an approval with no answer yet. */
  refused: boolean | null;
  confidence: number | null;
}

/** The strict per-case reading: answered, right, wrong, with the value the answer gives and why. */
export function scoreSelective(input: SelectiveInput): SelectiveCase {
  const gold = input.gold ?? [];
  const expected: SelectiveCase['expected'] =
    input.answerable === false
      ? 'refuse'
      : gold.length
        ? 'answer'
        : input.answerable === true
          ? 'answer-ungraded'
          : null;
  const answered = input.refused === null ? null : !input.refused;
  const text = input.answerText ?? '';
  const head = answered ? firstSentence(answerHead(text)) : null;
  const base = { expected, answered, confidence: input.confidence, head };
  if (answered === null) return { ...base, right: null, wrong: null, detail: 'waiting for an approval' };
  if (!answered)
    return {
      ...base,
      right: expected === 'answer' ? false : null,
      wrong: expected === 'answer' || expected === 'refuse' ? false : null,
      detail: expected === 'refuse' ? 'refused, as expected' : 'refused',
    };
  if (expected === 'refuse')
    return { ...base, right: false, wrong: true, detail: 'answered a question expected to be unanswerable' };
  if (expected !== 'answer') return { ...base, right: null, wrong: null, detail: 'answered; no gold to grade it' };
  const verdict = (right: boolean, detail: string): SelectiveCase => ({ ...base, right, wrong: !right, detail });
  const fullHead = answerHead(text);
  const missing = gold.filter((entry) => !containsGold(fullHead, entry));
  if (missing.length)
    return verdict(false, `the head ${quote(fullHead)} lacks ${missing.map((e) => quote(String(e))).join(', ')}`);
  const lead = head ?? '';
  const candidates = candidateSegments(lead, gold, input.question);
  if (candidates.length >= 2)
    return verdict(false, `lists candidates: ${candidates.map((c) => quote(c, 30)).join(', ')}`);
  const leadHasGold = gold.every((entry) => containsGold(lead, entry));
  if (!leadHasGold && foreignValues(lead, knownOf(gold, input.question)).length)
    return verdict(false, `gives ${quote(lead)}, not the gold`);
  return verdict(true, `gives the gold as one value: ${quote(lead)}`);
}
