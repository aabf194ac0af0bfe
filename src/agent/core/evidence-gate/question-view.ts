import { analyzeQuery } from '../../../text/analyzer.ts';
import { IDENTIFIER, identifiersIn } from '../../../text/identifiers.ts';
import { describedClauses } from '../../offline-qa/decompose-offline-hops.ts';
import { namesAKind } from './entity-nouns.ts';
import { splitContext } from '../../offline-qa/reader-question.ts';
import { isHan, words as zhWords } from '../../../text/zh/segmenter.ts';
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
  /** Synonyms of the question's terms (analyzer terms of each), where the language has a thesaurus. */
  expansions: Map<string, string[][]>;
  /** "Which activation function does …": the asked noun's terms, which the answer's sentence must state (one aside in a long noun). */
  noun: string[];
  /**
   * The noun is "the X of Y"'s ("the average score of BERT LARGE"): an attribute, which a table's column label may
   * write with one of its words ("Average"); a "which X" noun is the kind of thing asked, stated in full.
   */
  attributeNoun: boolean;
  /**
   * Things the question describes by a clause naming nothing ("the state whose official sport is jousting"): the
   * clause's terms say what the answer is about, as a name would, and are no part of the attribute.
   */
  described: { head: string; clause: string; terms: string[] }[];
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A word of an entity that names it (a capital or a digit); "reach" in a focus's "BERT reach" does not. */
const NAMING = /[\p{Lu}\p{N}]|[\p{Script=Han}]/u;
/** Question words that carry no attribute: the verb of the question, or its frame. */
const FRAME_TERMS = new Set(analyzeQuery('reach get use have has had take took contain contains total do does did'));
/** "What is the name of the waterfall …", "what is it called": asking for a name, which no sentence need say. */
const NAME_FRAME = /\b(?:the\s+)?name\s+of\b|\b(?:is|are|was|were)\s+(?:it|they|\w+)\s+called\b/iu;
const NAME_TERMS = new Set(analyzeQuery('name called'));
/**
 * "Can you tell me more about the Rongbuk Monastery?", "some basic information about X", "more details of X": a request
 * for what the evidence says about a named thing, whose words ask rather than name an attribute.
 */
const ABOUT_REQUEST =
  /\b(?:tell|know|learn|hear|read)\b[^?]*\babout\b|\b(?:details?|information|info|overview|insights?)\s+(?:of|about|on|regarding)\b|\bmore\s+about\b/iu;
const REQUEST_TERMS = new Set(
  analyzeQuery(
    'provide give tell know like want learn hear read more some basic detail details information info overview insight insights please help',
  ),
);
const NO_TERMS = new Set<string>();
/**
 * Words of Chinese questions that ask rather than say (多少, 多久, 几天; 叫什么 "what is it called", 时间 "when") or only
 * join (的, 了, 是 …).
 */
const STOP_HAN_WORDS = new Set(
  '什么 多少 多久 哪里 哪个 哪些 怎么 怎样 如何 为什么 是否 是谁 谁 几 几个 几天 几点 叫 叫做 时间 时候 吗 呢 的 了 是 在 有 和 与 及 于 之 其 这 那 们 啊 吧 呀 么 年 月 日'.split(
    ' ',
  ),
);

/** Small words a name carries between its capitalised ones ("the Siege of Cassel"). */
const JOINING = /^(?:of|the|de|del|la|le|von|van|du|da)$/u;
const namedAround = (words: readonly string[], at: number): boolean =>
  words.slice(0, at).some((word) => NAMING.test(word)) && words.slice(at + 1).some((word) => NAMING.test(word));

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
          .filter((word, i, all) => NAMING.test(word) || (JOINING.test(word) && namedAround(all, i)))
          .join(' ');
    if (!naming) continue;
    const whole = tokens.find((token) => token !== naming && token.split(/[-_.]/).includes(naming));
    const written = whole ?? naming;
    if (!out.includes(written)) out.push(written);
  }
  return out;
}

/**
 * Capitalised words inside a sentence ("… tell Northwind Logistics that …", "the composer of Aschenbrodel", "E. E.
 * Cummings"): names the language module may miss. Runs are not joined across "of": "the Revenue of North" names a
 * column and a row, each stated on its own.
 */
const CAPITALISED = /(?<=[^.?!\s]\s+)(?:\p{Lu}\.\s)*\p{Lu}[\p{L}\p{N}]*(?:\s+\p{Lu}[\p{L}\p{N}]*)*(?![\p{L}\p{N}])/gu;
const LATIN_ACRONYM = /(?<![\p{Script=Latin}\d])\p{Lu}[\p{Lu}\d]+(?![\p{Script=Latin}\d])/gu;
/** Lower-case code names ("order.shipped", "event_id"): named exactly, as identifiers are. */
const CODE_NAME = /\b\p{Ll}{2,}(?:[._]\p{Ll}[\p{Ll}\p{N}]+)+\b/gu;

/** A question opening again after a comma ("Anyway, Can I file …"): its capitalised words name nothing. */
const QUESTION_OPENER =
  /^(?:can|could|do|does|did|is|are|was|were|will|would|should|shall|may|might|must|what|which|who|when|where|why|how)\b/iu;

/**
 * Names written capitalised inside the question that the language module did not find. A question in title case
 * ("Pay Full Cash Risk") capitalises words, not names; a run sharing a word with a found entity is that entity written
 * longer.
 */
function capitalisedNames(question: string, found: readonly string[]): string[] {
  const words = question.match(/\p{L}+/gu) ?? [];
  const capitalised = words.filter((word) => /^\p{Lu}/u.test(word)).length;
  if (words.length > 2 && capitalised / words.length > 0.5) return [];
  const foundWords = new Set(found.flatMap((entity) => entity.toLowerCase().split(/\s+/u)));
  return [...question.matchAll(CAPITALISED)]
    .map((match) => match[0])
    .filter(
      (name) =>
        name !== 'I' &&
        !QUESTION_OPENER.test(name) &&
        !name
          .toLowerCase()
          .split(/\s+/u)
          .some((word) => foundWords.has(word)),
    );
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

/** "多少钱" asks money in whatever currency ("6.2万亿兹罗提"): 钱 is no measure word a value is written in. */
const unitOf = (question: string): string | undefined => {
  const unit = /(?:几|多少)(\p{Script=Han})/u.exec(question)?.[1];
  return unit === '钱' ? undefined : unit;
};

/** "Which activation function does BERT use?" → the terms of "activation function" (a what/which + noun question). */
function askedNoun(question: string): { terms: string[]; attribute: boolean } {
  const kind =
    /^\s*(?:which|what)\s+((?:[\p{L}\d.-]+\s+){0,3}?[\p{L}\d.-]+)\s+(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|must)\b/iu.exec(
      question,
    )?.[1];
  // "What amount of TEUs did …": the quantity word frames the count; the counted noun is what is asked.
  const noun = (kind ?? OF_NOUN.exec(question)?.[1])?.replace(QUANTITY_OF, '');
  return { terms: noun ? analyzeQuery(noun.replace(ROW_MODIFIER, ' ')) : [], attribute: !kind && noun !== undefined };
}

const QUANTITY_OF = /^(?:amount|number|total|count|quantity)\s+of\s+/iu;

/** Words that pick a row or compute over rows ("the first date", "the total apps"): no sentence states them. */
const ROW_MODIFIER =
  /\b(?:first|last|second|third|next|previous|combined|overall|highest|lowest|largest|smallest|most|least|current)\b/giu;

/** "What is the termination fee of CT-2023-0077?": the noun phrase asked about something ("termination fee"). */
const OF_NOUN =
  /^\s*(?:what|which|how much)\s+(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?((?:[\p{L}\d.-]+\s+){0,3}?[\p{L}\d.-]+)\s+(?:of|for|under|per)\b/iu;

const SHORT_CODE = /\b[A-Z]-\d{2,}\b/gu;
/** An API path ("/v2/orders", "/users/{id}/keys"): it names one endpoint as an identifier names one record. */
const API_PATH = /(?<![\p{L}\p{N}/])\/[\p{L}\p{N}_.-]+(?:\/[\p{L}\p{N}_.{}:-]+)+/gu;

/**
 * The gate's reading of a question. A follow-up the offline rewrite made standalone ("Which customer placed it?
 * (context: What is the status of order A-1007?)") asks with its own words about the context's entities.
 */
export function questionView(question: string): QuestionView {
  const { asked, context } = splitContext(question);
  const module = moduleFor(asked);
  const focus = module.focus(asked);
  // Short codes (A-1007) name one record as surely as long ones.
  const identifiers = [
    ...new Set([
      ...identifiersIn(question),
      ...(question.match(SHORT_CODE) ?? []),
      ...(question.match(CODE_NAME) ?? []),
      ...(question.match(API_PATH) ?? []),
    ]),
  ];
  const contextEntities = context ? module.focus(context).entities : [];
  // In a Chinese question a run of Latin capitals (GDP, CPI, APEC, C919) names something, as an identifier does.
  const named = module.code === 'en' ? capitalisedNames(asked, focus.entities) : (asked.match(LATIN_ACRONYM) ?? []);
  const entities = writtenEntities(question, [...focus.entities, ...named, ...contextEntities, ...identifiers]).filter(
    (entity, index, all) =>
      !all.some((other, at) => at !== index && other.length > entity.length && other.includes(entity)),
  );
  const entityTerms = new Set(entities.flatMap((entity) => analyzeQuery(entity)));
  // Chinese is read in the segmenter's words: a bigram across two words ("斯当", "了多") is no word of the question.
  const terms =
    module.code === 'en'
      ? focus.key_terms
      : [
          ...new Set(
            zhWords(asked).filter(
              (word) => isHan(word) && !STOP_HAN_WORDS.has(word) && !entities.some((entity) => entity.includes(word)),
            ),
          ),
        ];
  const noun = askedNoun(asked);
  const naming = NAME_FRAME.test(asked) ? NAME_TERMS : NO_TERMS;
  const request = entities.length > 0 && ABOUT_REQUEST.test(asked) ? REQUEST_TERMS : NO_TERMS;
  const described = module.code === 'en' ? describedThings(asked) : [];
  // The head noun ("the state") says what kind of thing is described; neither it nor the clause is asked.
  const outerTerms = new Set(
    analyzeQuery(described.reduce((rest, { head, clause }) => rest.replace(clause, ' ').replace(head, ' '), asked)),
  );
  const describing = new Set(
    described.flatMap((thing) => [...thing.terms, ...analyzeQuery(thing.head)]).filter((term) => !outerTerms.has(term)),
  );
  const attribute = terms.filter(
    (term) =>
      !entityTerms.has(term) &&
      !describing.has(term) &&
      !FRAME_TERMS.has(term) &&
      !naming.has(term) &&
      !request.has(term) &&
      !/^\d+$/.test(term),
  );
  return {
    question: asked,
    module,
    type: focus.answer_type,
    entities,
    identifiers,
    years: yearsIn(question.replace(IDENTIFIER, ' ')),
    terms,
    attribute,
    counted: countedNoun(asked),
    ...(unitOf(asked) ? { unit: unitOf(asked) as string } : {}),
    expansions: module.expansions?.(asked) ?? new Map(),
    noun: noun.terms.filter((term) => attribute.includes(term)),
    attributeNoun: noun.attribute,
    described,
  };
}

/**
 * A described thing's clause and its content terms (frame words and numbers left out): of a kind of named thing only
 * ("the state whose …"), not a kind of answer the clause narrows ("the categories of people for which …").
 */
function describedThings(question: string): QuestionView['described'] {
  return describedClauses(question)
    .filter(({ head }) => namesAKind(head))
    .map(({ head, clause }) => ({
      head,
      clause,
      terms: analyzeQuery(clause).filter((term) => !FRAME_TERMS.has(term) && !/^\d+$/.test(term)),
    }))
    .filter((thing) => thing.terms.length > 0);
}
