import { analyzeQuery } from '../../../text/analyzer.ts';
import { identifiersIn } from '../../../text/identifiers.ts';
import type { AnswerType, LanguageModule } from '../../../text/language.ts';
import { moduleFor } from '../../../text/languages.ts';
import { yearsIn } from '../../offline-qa/reader-signals.ts';

/** Kinds of value a span of the language module can find: the gate checks an answer's value is one of them. */
export const TYPED: ReadonlySet<AnswerType> = new Set([
  'number',
  'amount',
  'date',
  'duration',
  'person',
  'organization',
  'place',
]);

/** What the gate reads of a question: the value it asks for, what that value must be about, and its words. */
export interface QuestionView {
  question: string;
  module: LanguageModule;
  type: AnswerType;
  /** Named things (and identifiers) the evidence must name, as written in the question. */
  entities: string[];
  /** Identifiers (CT-2023-0077): the chunk that states the value must name them itself. */
  identifiers: string[];
  /** Years the question names: evidence about other years only is about another thing. */
  years: Set<string>;
  /** Analyzer terms of the question's content words, entities' terms included. */
  terms: string[];
  /** The terms that name the asked attribute (not an entity's): what must be stated beside the value. */
  attribute: string[];
  /** "How many <noun>": the counted noun's terms (a row count answers only a question about rows). */
  counted: string[];
  /** "几天", "多少人": the measure word a Chinese count asks in (a value in another one counts something else). */
  unit?: string;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A word of an entity that names it (a capital or a digit); "reach" in a focus's "BERT reach" does not. */
const NAMING = /[\p{Lu}\p{N}]|[\p{Script=Han}]/u;
/** Question words that carry no attribute: the verb of the question, or its frame. */
const FRAME_TERMS = new Set(analyzeQuery('reach get use have has had take took contain contains total do does did'));

/**
 * An entity as the question writes it: a focus entity inside a longer hyphenated or dotted token ("LARGE" in
 * "BERT-LARGE") is that token, and only its naming words count.
 */
function writtenEntities(question: string, entities: readonly string[]): string[] {
  const tokens = question.match(/[\p{L}\p{N}]+(?:[-_.][\p{L}\p{N}]+)*/gu) ?? [];
  const out: string[] = [];
  for (const entity of entities) {
    const naming = CJK.test(entity)
      ? entity
      : entity
          .split(/\s+/)
          .filter((word) => NAMING.test(word))
          .join(' ');
    if (!naming) continue;
    const whole = tokens.find((token) => token !== naming && token.split(/[-_.]/).includes(naming));
    const written = whole ?? naming;
    if (!out.includes(written)) out.push(written);
  }
  return out;
}

const COUNT_STOP =
  /^(?:do|does|did|are|were|is|was|have|has|had|can|could|will|would|may|in|of|per|for|on|at|to|by|with|from|that|which)$/i;

/** "How many words of English Wikipedia …" → the terms of "words": what a count must count. */
function countedNoun(question: string): string[] {
  const after = /\bhow many\s+([^?()]+)/iu.exec(question)?.[1] ?? '';
  const words: string[] = [];
  for (const word of after.split(/\s+/u).filter(Boolean)) {
    if (COUNT_STOP.test(word) || words.length === 3) break;
    words.push(word);
  }
  return words.length ? analyzeQuery(words.join(' ')) : [];
}

const unitOf = (question: string): string | undefined => /(?:几|多少)(\p{Script=Han})/u.exec(question)?.[1];

/** The gate's reading of a question. */
export function questionView(question: string): QuestionView {
  const module = moduleFor(question);
  const focus = module.focus(question);
  const identifiers = identifiersIn(question);
  const entities = writtenEntities(question, [...focus.entities, ...identifiers]).filter(
    (entity, index, all) =>
      !all.some((other, at) => at !== index && other.length > entity.length && other.includes(entity)),
  );
  const entityTerms = new Set(entities.flatMap((entity) => analyzeQuery(entity)));
  const terms = focus.key_terms;
  const attribute = terms.filter((term) => !entityTerms.has(term) && !FRAME_TERMS.has(term) && !/^\d+$/.test(term));
  return {
    question,
    module,
    type: focus.answer_type,
    entities,
    identifiers,
    years: yearsIn(question),
    terms,
    attribute,
    counted: countedNoun(question),
    ...(unitOf(question) ? { unit: unitOf(question) as string } : {}),
  };
}
