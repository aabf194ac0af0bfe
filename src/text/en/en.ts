import { analyzeQuery } from '../analyzer.ts';
import { englishAnswerType } from './answer-type.ts';
import { namedThings } from './nlp.ts';
import { englishSpans } from './spans.ts';
import { identifiersIn } from '../identifiers.ts';
import type { LanguageModule, QuestionFocus } from '../language.ts';
import { headedSentences } from '../sentences.ts';
import { synonymsOf } from './wordnet.ts';

/**
 * Function words: question words, auxiliaries, pronouns, articles, prepositions and request verbs. They say what
 * kind of answer is wanted (see answer-type.ts), never what it is about, so they are not key terms. Passed
 * through the analyzer once, so they are removed as the analyzer spells them (stemmed).
 */
const FUNCTION_WORDS =
  'a an the of in on at to for by per with from and or but nor is are was were be been being am do does did done what which who ' +
  'whom whose when where why how much many can could should would will shall may might must tell me please show list describe ' +
  'explain about it its this that these those there their they them our ours we us you your yours i my mine he him his she her hers ' +
  'any all some also so as if than then into under over up out has have had s get got kind sort thing things way happen happens ' +
  'there here just very really still yet again ever one ones own same such other else whether not no know want need let like before after while during ' +
  // Light verbs: "keeps delivering late", "came from", "make sure" carry the aspect or the motion, not the topic.
  'keep keeps kept make makes made take takes took come comes came go goes went';
let functionTerms: Set<string> | undefined;
const isFunctionTerm = (term: string): boolean => (functionTerms ??= new Set(analyzeQuery(FUNCTION_WORDS))).has(term);

/** Analyzer terms of a question's content words, in order. */
export function englishKeyTerms(question: string): string[] {
  return analyzeQuery(question).filter((term) => !isFunctionTerm(term) && (term.length > 1 || /\d/.test(term)));
}

const QUOTED = /["“]([^"”]{2,80})["”]/g;
const NUMBER_IN_QUESTION = /\b(?:1[5-9]|20)\d{2}\b/g;
/** Acronyms and tickers (MSFT, GDPR, SLA): written in capitals, they name one thing, which compromise often misses. */
const ACRONYM = /\b[A-Z][A-Z0-9&]{1,9}\b/g;
const NOT_NAMES = new Set(['I', 'A', 'OK', 'US', 'USD', 'EUR', 'GBP', 'AM', 'PM', 'FAQ', 'ID', 'IDS']);

/** A name's own words: lower-case words compromise took in at its ends are not ("BERT reach" → "BERT"). */
const trimName = (name: string): string =>
  name
    .replace(/(?:\s+\p{Ll}[\p{L}'’-]*)+$/u, '')
    .replace(/^(?:\p{Ll}[\p{L}'’-]*\s+)+/u, '')
    .trim();

/** People, places and organisations (compromise), identifiers, quoted titles, and years a text names. */
function englishEntities(text: string): string[] {
  const named = namedThings(text);
  const quoted = [...text.matchAll(QUOTED)].map((match) => (match[1] as string).trim());
  const years = text.match(NUMBER_IN_QUESTION) ?? [];
  const ids = identifiersIn(text);
  const acronyms = (text.match(ACRONYM) ?? []).filter(
    (word) => !NOT_NAMES.has(word) && !/^\d+$/.test(word) && !ids.some((id) => id.includes(word)),
  );
  const names = [...named.people, ...named.organizations, ...named.places].map(trimName).filter(Boolean);
  const found = [...ids, ...quoted, ...names, ...acronyms, ...years];
  // A name inside a longer one ("Acme" in "Acme Corp") is the same entity.
  const unique = [...new Set(found)];
  return unique.filter(
    (entity) =>
      !unique.some(
        (other) =>
          other !== entity && other.toLowerCase().includes(entity.toLowerCase()) && !identifiersIn(entity).length,
      ),
  );
}

/**
 * The words that ask for the kind of answer ("how quickly", "how early", "which date"): they say what is wanted,
 * never what it is about, and a passage states the value instead ("within 30 seconds", "Fixed on 9 April").
 */
const ASKING_PHRASE =
  /\bhow\s+(?:quickly|early|soon|long|often|fast|late|far|much|many|old)\b|\b(?:which|what)\s+(?:date|day|year|month|time|percentage|share)\b/gi;

export const en: LanguageModule = {
  code: 'en',
  sentences: (text) => headedSentences(text).map((sentence) => sentence.text),
  focus(question): QuestionFocus {
    return {
      language: 'en',
      answer_type: englishAnswerType(question),
      entities: englishEntities(question),
      key_terms: englishKeyTerms(question.replace(ASKING_PHRASE, ' ')),
    };
  },
  entities: englishEntities,
  spans: englishSpans,
  expansions: (question) => englishExpansions(question),
};

const WORD = /[\p{L}][\p{L}'’-]*/gu;

/**
 * WordNet synonyms of a question's content words and of its two-word phrases ("give up" → "quit", "stop"; "money
 * back" → "refund"), as analyzer terms, keyed by the key term they stand for (a phrase's synonyms count for each
 * of its content words).
 */
export function englishExpansions(question: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  const words = question.match(WORD) ?? [];
  const add = (keys: readonly string[], synonym: string) => {
    const terms = englishKeyTerms(synonym);
    if (terms.length === 0) return;
    for (const key of keys) {
      if (terms.length === 1 && terms[0] === key) continue;
      const list = out.get(key) ?? [];
      if (!list.some((known) => known.join(' ') === terms.join(' '))) list.push(terms);
      out.set(key, list);
    }
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const keys = englishKeyTerms(word);
    if (keys.length > 0 && !/\d/.test(word) && !/^\p{Lu}/u.test(word.slice(1)) && word.length > 2)
      for (const synonym of synonymsOf(word)) add(keys, synonym);
    const next = words[i + 1];
    if (next) {
      const phraseKeys = englishKeyTerms(`${word} ${next}`);
      if (phraseKeys.length > 0) for (const synonym of synonymsOf(`${word} ${next}`)) add(phraseKeys, synonym);
    }
  }
  return out;
}
