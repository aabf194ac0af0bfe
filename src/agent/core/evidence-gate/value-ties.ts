import type { AnswerSpan } from '../../../text/language.ts';
import { otherYear, sameValue } from '../../offline-qa/reader-signals.ts';
import { type CitedSentence, entityPositions, freshValues, names, squash, tokens } from './cited-reading.ts';
import type { QuestionView } from './question-view.ts';
import type { AnswerType } from '../../../text/language.ts';

/** How strongly a cited sentence ties one value to the question. */
export interface ValueTie {
  value: string;
  sentence: CitedSentence;
  /** Weighted share of the asked attribute's terms the sentence (or its heading) states. */
  attribute: number;
  /** Question words and entities near the value, nearer counting more. */
  score: number;
}

/** What a value keeps of its tie when another entity of the same family is named nearer to it ("BERTLARGE (L=24" for BERT-BASE). */
const SIBLING = 0.25;
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

/** The ties of each value of `type` the sentences state (or, for `any`, of each sentence as a whole). */
export function valueTies(
  view: QuestionView,
  sentences: readonly CitedSentence[],
  type: AnswerType,
  weights: ReadonlyMap<string, number>,
): ValueTie[] {
  const ties: ValueTie[] = [];
  const attributeTotal = view.attribute.reduce((sum, term) => sum + (weights.get(term) ?? 1), 0);
  for (const sentence of sentences) {
    if (otherYear(sentence.text, view.years) && otherYear(sentence.chunk.text, view.years)) continue;
    const words = tokens(sentence.text);
    const headingTerms = new Set(
      tokens(`${sentence.heading} ${sentence.chunk.title} ${sentence.before}`).flatMap((t) => t.terms),
    );
    const positions = new Map<string, number[]>();
    words.forEach((word, index) => {
      for (const term of word.terms) positions.set(term, [...(positions.get(term) ?? []), index]);
    });
    // A word in another clause than the value is farther than its token distance says.
    // A label in a later clause belongs to the value after it ("L=24, the hidden size H=1024"): farther still.
    const distance = (from: number, to: number): number => {
      const clauses = (words[from]?.clause ?? 0) - (words[to]?.clause ?? 0);
      return Math.abs(from - to) + OTHER_CLAUSE * (clauses > 0 ? 2 * clauses : -clauses);
    };
    const stated = view.attribute.filter((term) => positions.has(term) || headingTerms.has(term));
    const attribute = attributeTotal
      ? stated.reduce((sum, term) => sum + (weights.get(term) ?? 1), 0) / attributeTotal
      : 1;
    const entityAt = view.entities.map((entity) => entityPositions(entity, words, sentence.text));
    const siblingsAt = view.entities.map((entity) => siblingPositions(entity, words));
    // Tied to the attribute and to the entity at once: a value beside the attribute of another entity is not tied.
    const scoreAt = (index: number): number => {
      let have = 0;
      let total = 0;
      for (const term of view.attribute.length ? view.attribute : view.terms) {
        const weight = weights.get(term) ?? 1;
        total += weight;
        const at = positions.get(term);
        if (at) have += weight * near(Math.min(...at.map((p) => distance(p, index))));
        else if (headingTerms.has(term)) have += weight * near(2 * HALF_DISTANCE);
      }
      const attributeNear = total ? have / total : 1;
      const family = entityAt.every((at, i) => nearestIsEntity(at, siblingsAt[i] ?? [], index)) ? 1 : SIBLING;
      const found = entityAt.filter((at) => at.length > 0);
      const closeness = found.length
        ? found.reduce((sum, at) => sum + near(Math.min(...at.map((p) => distance(p, index))) / 2), 0) / found.length
        : 1;
      const entityNear = family * closeness;
      return attributeNear * entityNear;
    };
    if (type === 'any') {
      ties.push({
        value: sentence.text,
        sentence,
        attribute,
        score: scoreAt(Math.floor(words.length / 2)) * (0.5 + 0.5 * attribute),
      });
      continue;
    }
    for (const span of freshValues(view, sentence.text, type)) {
      const index = Math.max(
        0,
        words.findIndex((word) => word.end > span.start),
      );
      if (countsOther(view, sentence.text, span, words)) continue;
      ties.push({ value: span.text, sentence, attribute, score: scoreAt(index) * (0.5 + 0.5 * attribute) });
    }
  }
  return ties;
}

/** Whether the cited chunks together name every entity of the question, and the value's own chunk its identifiers. */
export function entitiesStated(view: QuestionView, tie: ValueTie, cited: readonly CitedSentence[]): string[] {
  const chunkText = (sentence: CitedSentence) =>
    `${sentence.chunk.doc_id.replace(/[/_.-]+/g, ' ')} ${sentence.chunk.title} ${sentence.chunk.heading} ${sentence.chunk.text}`;
  const all = [...new Set(cited.map(chunkText))].join('\n');
  const own = chunkText(tie.sentence);
  const missing = view.entities.filter((entity) => !names(all, entity));
  const missingIds = view.identifiers.filter((id) => !names(own, id) && !missing.includes(id));
  return [...missing, ...missingIds];
}

/** Values among `ties` that are the same value as `value`. */
export const sameAs = (value: string, span: Pick<AnswerSpan, 'text'> | ValueTie): boolean =>
  sameValue(value, 'text' in span ? span.text : span.value);

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
