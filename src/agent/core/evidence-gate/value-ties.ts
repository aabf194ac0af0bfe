import type { AnswerSpan } from '../../../text/language.ts';
import { bareOtherYear, isDateline, otherYear, sameValue } from '../../offline-qa/reader-signals.ts';
import {
  type CitedSentence,
  entityPositions,
  freshValues,
  isTableRow,
  names,
  saysOtherwise,
  squash,
  tokens,
} from './cited-reading.ts';
import type { QuestionView } from './question-view.ts';
import { asksMoney, asksShare, asksTimeSpan, placesTime } from './measured-type.ts';
import type { AnswerType } from '../../../text/language.ts';

/** How strongly a cited sentence ties one value to the question. */
export interface ValueTie {
  value: string;
  sentence: CitedSentence;
  /** Weighted share of the asked attribute's terms the sentence (or its heading) states. */
  attribute: number;
  /** Question words and entities near the value, nearer counting more. */
  score: number;
  /** Every term of the asked noun ("activation function") is stated with the value (or the question names none). */
  noun: boolean;
  /** Where the value stands in the sentence (UTF-16 offset; the sentence's middle for a whole-sentence tie). */
  at: number;
}

/** What a value keeps of its tie when another entity of the same family is named nearer to it ("BERTLARGE (L=24" for BERT-BASE). */
const SIBLING = 0.25;
/** A word of the same stem the analyzer spelled apart ("nightly" for "night") is nearly the word. */
const STEM_CREDIT = 0.9;
const MIN_STEM = 5;

/** Positions of a sentence term that begins with the question's term, or that the term begins with (≥ 5 letters shared). */
function sharedStem(term: string, direct: ReadonlyMap<string, number[]>): number[] | undefined {
  if (term.length < MIN_STEM - 1 || /[^\p{Ll}]/u.test(term)) return undefined;
  for (const [other, at] of direct)
    if (other.length >= MIN_STEM - 1 && /^\p{Ll}+$/u.test(other) && (other.startsWith(term) || term.startsWith(other)))
      if (Math.min(other.length, term.length) >= MIN_STEM - 1) return at;
  return undefined;
}

/** A number followed by a measure word of people or things ("4.22亿人次") counts them; it is no sum of money. */
const COUNTED_AFTER = /^\s*[人次个件位名户台辆架艘只头座家所]/u;

/** The closeness of an entity named right after the value ("$320 in London"): more than any distance gives. */
const BOUND = 1.5;

/** What an entity named elsewhere in the chunk, not in the sentence, gives the tie: less than any naming sentence. */
const UNNAMED = 0.15;
const NAMED_FLOOR = 0.3;
/** An entity the sentence before names and this one refers back to ("Globex hit … We raised their limit …"). */
const COREFERENT = 0.6;
const PRONOUN = /\b(?:their|its|they|them|it|his|her|he|she|theirs)\b|[他她它该]/iu;
/** A word said in the heading, or in the sentence before, says less than one said beside the value. */
const HEADING_CREDIT = 0.6;
const BEFORE_CREDIT = 0.5;
/** A synonym says less than the word itself. */
const SYNONYM_CREDIT = 0.75;
/** Token distance at which a word's credit halves. */
const HALF_DISTANCE = 4;
/** Tokens a clause boundary adds to a distance. */
const OTHER_CLAUSE = 3;

/** Rarer words of the question say more: weights from how many chunks of the run's evidence state each term. */
export function termWeights(view: QuestionView, chunkTexts: readonly string[]): Map<string, number> {
  const sets = chunkTexts.map((text) => new Set(tokens(text).flatMap((token) => token.terms)));
  const n = Math.max(1, sets.length);
  return new Map(
    view.terms.map((term) => {
      const df = sets.filter((terms) => terms.has(term)).length;
      return [term, 1 + Math.log(1 + n / (1 + df))];
    }),
  );
}

const near = (distance: number): number => 1 / (1 + distance / HALF_DISTANCE);

const LATIN_OR_DIGIT = /[\p{Script=Latin}\p{N}]/u;
/**
 * Where a value is written whole in a text, not inside a longer word or number ("4" is not in "A-1004", "2024" or
 * "4.5"); -1 when nowhere. Han text has no word boundaries to check.
 */
function wholeAt(text: string, value: string): number {
  const open = (inner: string | undefined, outer: string | undefined): boolean =>
    !LATIN_OR_DIGIT.test(inner ?? '') || !LATIN_OR_DIGIT.test(outer ?? '');
  // "12" is not in "12.5" or "1,200" either: a separator between digits continues the number.
  const continues = (at: number, step: 1 | -1): boolean =>
    /[.,]/u.test(text[at] ?? '') &&
    /\d/u.test(text[at + step] ?? '') &&
    /\d/u.test(value.at(step === 1 ? -1 : 0) ?? '');
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    const end = at + value.length;
    if (open(value[0], text[at - 1]) && open(value.at(-1), text[end]) && !continues(at - 1, -1) && !continues(end, 1))
      return at;
  }
  return -1;
}

/** Where each question term is stated in a sentence (word indices), and how fully (a synonym states it for less). */
type Positions = ReadonlyMap<string, { at: number[]; credit: number }>;

/**
 * The positions of the terms a sentence states outside a value's own words (the same map when none is inside), save
 * the unit a "how many years" counts in, which the value states as its own.
 */
function outside(
  positions: Positions,
  words: readonly { start: number; end: number }[],
  span: { start: number; end: number },
  counted: readonly string[],
): Positions {
  const inside = (at: number): boolean => {
    const word = words[at];
    return word !== undefined && word.start >= span.start && word.end <= span.end;
  };
  if (![...positions.values()].some(({ at }) => at.some(inside))) return positions;
  const held = new Map<string, { at: number[]; credit: number }>();
  for (const [term, found] of positions) {
    const at = counted.includes(term) ? found.at : found.at.filter((index) => !inside(index));
    if (at.length) held.set(term, { ...found, at });
  }
  return held;
}

/** The ties of each value of `type` the sentences state (or, for `any`, of each sentence as a whole). */
export function valueTies(
  view: QuestionView,
  sentences: readonly CitedSentence[],
  type: AnswerType,
  weights: ReadonlyMap<string, number>,
  /** Values the answer gives as written, found in a sentence even where the language module tags no span of the type. */
  literal: readonly string[] = [],
): ValueTie[] {
  const ties: ValueTie[] = [];
  const money = asksMoney(view);
  const share = asksShare(view);
  const attributeTotal = view.attribute.reduce((sum, term) => sum + (weights.get(term) ?? 1), 0);
  for (const sentence of sentences) {
    if (otherYear(sentence.text, view.years) && otherYear(sentence.chunk.text, view.years)) continue;
    const words = tokens(sentence.text);
    const headingTerms = termsAround(view, `${sentence.heading} ${sentence.chunk.title}`);
    const beforeTerms = termsAround(view, sentence.before);
    const direct = new Map<string, number[]>();
    words.forEach((word, index) => {
      for (const term of word.terms) direct.set(term, [...(direct.get(term) ?? []), index]);
    });
    // A Chinese word of the question stands where the sentence writes it.
    if (view.module.code !== 'en')
      for (const term of view.terms) {
        const at = occurrences(sentence.text, term).map((offset) => words.findIndex((word) => word.end > offset));
        if (at.length) direct.set(term, at);
      }
    // A term the sentence states only through a synonym ("reply" for "respond") is stated there, for less.
    const positions = new Map<string, { at: number[]; credit: number }>();
    for (const term of view.terms) {
      const at = direct.get(term) ?? sharedStem(term, direct);
      if (at) positions.set(term, { at, credit: direct.has(term) ? 1 : STEM_CREDIT });
      else {
        const synonym = view.expansions.get(term)?.find((parts) => parts.every((part) => direct.has(part)));
        if (synonym) positions.set(term, { at: direct.get(synonym[0] as string) ?? [], credit: SYNONYM_CREDIT });
      }
    }
    const synonymIn = (terms: ReadonlySet<string>, term: string): boolean =>
      view.expansions.get(term)?.some((parts) => parts.every((part) => terms.has(part))) ?? false;
    // Said around the sentence rather than in it: its heading or title, or the sentence before it.
    const around = (term: string): number =>
      headingTerms.has(term) || synonymIn(headingTerms, term)
        ? HEADING_CREDIT
        : beforeTerms.has(term) || synonymIn(beforeTerms, term)
          ? BEFORE_CREDIT
          : 0;
    // A word in another clause than the value is farther than its token distance says.
    // A label in a later clause belongs to the value after it ("L=24, the hidden size H=1024"): farther still.
    const distance = (from: number, to: number): number => {
      const clauses = (words[from]?.clause ?? 0) - (words[to]?.clause ?? 0);
      return Math.abs(from - to) + OTHER_CLAUSE * (clauses > 0 ? 2 * clauses : -clauses);
    };
    const creditIn = (held: Positions, term: string): number => held.get(term)?.credit ?? around(term);
    const credit = (term: string): number => creditIn(positions, term);
    // The asked noun ("activation function") is stated with the value, one word aside in a long one ("on-time delivery
    // rate"); a table row's terse column label states an asked attribute with one of its words ("Average" for "the
    // average score of").
    const nounMissing = view.noun.filter((term) => credit(term) === 0).length;
    const noun =
      view.attributeNoun && isTableRow(sentence.text)
        ? nounMissing < Math.max(1, view.noun.length)
        : nounMissing <= (view.noun.length >= 3 ? 1 : 0);
    const attributeIn = (held: Positions): number =>
      attributeTotal
        ? view.attribute.reduce((sum, term) => sum + (weights.get(term) ?? 1) * creditIn(held, term), 0) /
          attributeTotal
        : 1;
    const attribute = attributeIn(positions);
    const entityAt = view.entities.map((entity) => entityPositions(entity, words, sentence.text));
    const refersBack = PRONOUN.test(sentence.text);
    const beforeWords = refersBack ? tokens(sentence.before) : [];
    const coreferent = view.entities.map(
      (entity) => refersBack && entityPositions(entity, beforeWords, sentence.before).length > 0,
    );
    const siblingsAt = view.entities.map((entity) => siblingPositions(entity, words));
    // Tied to the attribute and to the entity at once: a value beside the attribute of another entity is not tied.
    const scoreAt = (index: number, held: Positions = positions): number => {
      let have = 0;
      let total = 0;
      for (const term of view.attribute.length ? view.attribute : view.terms) {
        const weight = weights.get(term) ?? 1;
        total += weight;
        const found = held.get(term);
        if (found?.at.length)
          have += weight * found.credit * near(Math.min(...found.at.map((p) => distance(p, index))));
        else if (creditIn(held, term) > 0) have += weight * creditIn(held, term) * near(2 * HALF_DISTANCE);
      }
      const attributeNear = total ? have / total : 1;
      const family = entityAt.every((at, i) => nearestIsEntity(at, siblingsAt[i] ?? [], index)) ? 1 : SIBLING;
      // An entity the sentence does not name at all (only its chunk does) ties the value less than one beside it.
      const closeness = entityAt.length
        ? entityAt.reduce(
            (sum, at, i) => sum + (at.length ? named(at, index) : coreferent[i] ? COREFERENT : UNNAMED),
            0,
          ) / entityAt.length
        : 1;
      const entityNear = family * closeness;
      return attributeNear * entityNear;
    };
    const row = isTableRow(sentence.text);
    // Named in a table row, the entity is the row's key: every value of the row is its. In prose, nearer says more.
    const named = (at: readonly number[], index: number): number =>
      row || boundAfter(at, index)
        ? BOUND
        : Math.max(NAMED_FLOOR, near(Math.min(...at.map((p) => distance(p, index))) / 2));
    // "$320 in London": an entity named right after the value, in its clause, is whose value it is.
    const boundAfter = (at: readonly number[], index: number): boolean =>
      at.some((p) => p > index && p - index <= 2 && words[p]?.clause === words[index]?.clause);
    if (type === 'any') {
      ties.push({
        at: Math.floor(sentence.text.length / 2),
        value: sentence.text,
        sentence,
        attribute,
        noun,
        score: scoreAt(Math.floor(words.length / 2)) * (0.5 + 0.5 * attribute),
      });
      continue;
    }
    // "When is a lost parcel reported?" is answered by a time ("after 10 days") as well as by a date.
    const spans = [
      ...freshValues(view, sentence.text, type),
      ...(type === 'date' && asksTimeSpan(view)
        ? freshValues(view, sentence.text, 'duration').filter((span) => placesTime(view, sentence.text, span))
        : []),
    ];
    for (const value of literal) {
      const at = wholeAt(sentence.text, value);
      const span = { text: value, start: at, end: at + value.length, type };
      if (
        at >= 0 &&
        !spans.some((known) => sameValue(known.text, value)) &&
        !saysOtherwise(view, sentence.text, span, type)
      )
        spans.push(span);
    }
    for (const span of spans) {
      const index = Math.max(
        0,
        words.findIndex((word) => word.end > span.start),
      );
      if (countsOther(view, sentence.text, span, words)) continue;
      if (money && (/%|百分之|percent/u.test(span.text) || COUNTED_AFTER.test(sentence.text.slice(span.end)))) continue;
      if (
        share &&
        !/%|百分之|percent|成/u.test(span.text) &&
        !/^\s?(?:%|percent\b)/u.test(sentence.text.slice(span.end))
      )
        continue;
      if (isDateline(sentence.text, span)) continue;
      // "2022年G20峰会的时间" answered "2018年": a bare year the question does not name dates another year's event.
      if (type === 'date' && view.years.size > 0 && bareOtherYear(span.text, view.years)) continue;
      // The value's own words state nothing about it: the "seconds" of "35 seconds" is not the "second" of "a second
      // time".
      const held = outside(positions, words, span, view.counted);
      const spanAttribute = held === positions ? attribute : attributeIn(held);
      ties.push({
        value: span.text,
        sentence,
        attribute: spanAttribute,
        noun,
        at: span.start,
        score: scoreAt(index, held) * (0.5 + 0.5 * spanAttribute),
      });
    }
  }
  return ties;
}

/** The number a value leads with, without grouping ("2,500M words" → "2500"); '' for none. */
const leadingNumber = (value: string): string =>
  /\d[\d,.]*/u.exec(value)?.[0].replace(/,/g, '').replace(/\.$/u, '') ?? '';

/** Whether a span or tie states the same value: the same text, or the same leading number ("12" and "12 layers"). */
export const sameAs = (value: string, span: Pick<AnswerSpan, 'text'> | ValueTie): boolean => {
  const other = 'text' in span ? span.text : span.value;
  if (sameValue(value, other)) return true;
  const number = leadingNumber(value);
  return number !== '' && number === leadingNumber(other) && /^\D{0,3}\d/u.test(value) && /^\D{0,3}\d/u.test(other);
};

/**
 * "How many layers": a number written straight before a noun counts that noun ("two model sizes"), and a count of
 * something else is not the answer. A number followed by punctuation ("L=12,") counts nothing by itself.
 */
function countsOther(view: QuestionView, text: string, span: AnswerSpan, words: ReturnType<typeof tokens>): boolean {
  if (view.unit) {
    const last = span.text.trim().slice(-1);
    return /\p{Script=Han}/u.test(last) && !/[\d零〇一二三四五六七八九十百千万亿两]/u.test(last) && last !== view.unit;
  }
  if (view.counted.length === 0) return false;
  // A price is not a count ("$310 per user" for "how many users").
  if (/^\s*[$€£¥]/u.test(span.text)) return true;
  const own = tokens(span.text).slice(1);
  const after = words.filter((word) => word.start >= span.end).slice(0, 3);
  const adjacent =
    after[0] && /^\s+$/u.test(text.slice(span.end, after[0].start)) && /^\p{L}/u.test(text.slice(after[0].start));
  const unit = [...own, ...(adjacent ? after : [])];
  if (unit.length === 0) return false;
  return !unit.some((word) => word.terms.some((term) => view.counted.includes(term)));
}

/** Names of the entity's family the text gives instead: words that begin as the entity does but are another name. */
function siblingPositions(entity: string, words: ReturnType<typeof tokens>): number[] {
  const key = squash(entity);
  const stem = squash(entity.split(/[-_.\s]/u)[0] ?? '');
  if (stem.length < 3 || stem === key) return [];
  return words.flatMap((word, index) =>
    word.key.startsWith(stem) && word.key !== key && word.key !== stem ? [index] : [],
  );
}

/**
 * Whether the mention of the family a value belongs to is the entity itself: the last one named before the value
 * ("BERTBASE (L=12, …) and BERTLARGE (L=24, …)"), or the first after it when none comes before.
 */
function nearestIsEntity(entityAt: readonly number[], siblingsAt: readonly number[], index: number): boolean {
  if (siblingsAt.length === 0) return true;
  if (entityAt.length === 0) return false;
  const before = (at: readonly number[]) => Math.max(-1, ...at.filter((p) => p <= index));
  const after = (at: readonly number[]) => Math.min(Number.POSITIVE_INFINITY, ...at.filter((p) => p > index));
  const entityBefore = before(entityAt);
  const siblingBefore = before(siblingsAt);
  if (entityBefore >= 0 || siblingBefore >= 0) return entityBefore > siblingBefore;
  return after(entityAt) < after(siblingsAt);
}

/** Offsets at which `text` writes `word`. */
function occurrences(text: string, word: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) found.push(at);
  return found;
}

/** The terms a text around a sentence states: its analyzer terms, and the question's Chinese words it writes. */
function termsAround(view: QuestionView, text: string): Set<string> {
  const terms = new Set(tokens(text).flatMap((token) => token.terms));
  if (view.module.code !== 'en') for (const term of view.terms) if (text.includes(term)) terms.add(term);
  return terms;
}
