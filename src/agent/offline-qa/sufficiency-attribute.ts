import { analyzeForIndex, analyzeQuery } from '../../text/analyzer.ts';
import { identifiersIn } from '../../text/identifiers.ts';
import type { AnswerType, LanguageModule } from '../../text/language.ts';
import { moduleFor } from '../../text/languages.ts';
import { headedSentences } from '../../text/sentences.ts';
import type { Evidence } from '../../domain/evidence.ts';
import { askedPart } from './sufficiency-asked.ts';
import { clausesOf } from './sufficiency-clauses.ts';
import { englishHead } from './sufficiency-head.ts';

/**
 * "Mentions the topic" against "states the asked thing". A passage about CT-2024-0193 names the contract in every
 * sentence, so the question's entity makes each of them look close to "who signed CT-2024-0193?"; what tells a
 * statement of the answer from a mention of the topic is whether the asked attribute itself (here "signed") is
 * stated, and stated in the same clause as the entity, next to a value of the asked kind. The attribute terms are
 * the question's own key terms without its entities' terms; a follow-up's earlier turn (`(context: …)`) names the
 * topic and is left out.
 */

/** Credit for an attribute term found only as a WordNet synonym: a paraphrase, or another thing. */
const SYNONYM_CREDIT = 0.75;
/** Credit for an attribute term found only in the heading the clause sits under. */
const HEADING_CREDIT = 0.75;
/** Clauses whose spans are looked for (names cost a parse each). */
const SPAN_CLAUSES = 3;
/** Answer types whose span is a value or a name (a yes/no or definition "span" is in most clauses alike). */
const VALUE_TYPES = new Set<AnswerType>(['number', 'amount', 'date', 'duration', 'person', 'organization', 'place']);

export interface AttributeReading {
  /** Weighted share of the attribute terms the best clause states (its own words, no heading or title credit). */
  attributeCoverage: number;
  /** Whether one clause states every attribute term (synonyms count). */
  attributeComplete: boolean;
  /** The attribute coverage of the best clause in a passage that names all the question's entities. */
  attributeWithEntity: number;
  /** Whether a value of the asked type occurs in a clause that states at least half the attribute. */
  typedNearAttribute: boolean;
  /** Unweighted share of the asked part's key terms (entities included) in the best clause. */
  keyShare: number;
  /** Weighted share of the asked part's key terms stated anywhere in the evidence. */
  askedUnion: number;
  /** The best clause's attribute coverage minus the best one's in another sentence. */
  margin: number;
  /**
   * How fully the head of the question's focus (sufficiency-head.ts: "engineer", "phone number", "signed") is stated
   * in one clause of a passage naming the question's entities; the attribute's coverage there when no head is read.
   */
  headStated: number;
  /**
   * How much the clause that best states the rest of the question (its words beyond the head) lacks the head: high
   * when a passage names the topic in the question's own words but not the asked attribute. 0 when no head is read.
   */
  topicOnly: number;
  /** Whether that clause (head stated) also holds a value of the asked type. */
  headValue: boolean;
  /** The head as written ([] when none was read), and whether it is a noun phrase or a verb. */
  headWords: string[];
  headKind: 'noun' | 'verb';
  /** The attribute terms, most specific first (what a refusal says is missing). */
  attributeTerms: string[];
}

interface Term {
  term: string;
  weight: number;
  synonyms: string[][];
}

const termSet = (text: string): Set<string> => new Set(analyzeForIndex(text).split(' ').filter(Boolean));

const normalize = (text: string): string => text.normalize('NFKC').toLowerCase();

function matchIn(term: Term, terms: ReadonlySet<string>): number {
  if (terms.has(term.term)) return 1;
  return term.synonyms.some((synonym) => synonym.every((part) => terms.has(part))) ? SYNONYM_CREDIT : 0;
}

/** A clause's words, and the heading it sits under: "Pricing" names the attribute its sentences state. */
interface Place {
  terms: ReadonlySet<string>;
  heading?: ReadonlySet<string>;
}

const matchOf = (term: Term, place: Place): number =>
  Math.max(matchIn(term, place.terms), place.heading ? matchIn(term, place.heading) * HEADING_CREDIT : 0);

function coverage(keys: readonly Term[], place: Place): number {
  const total = keys.reduce((sum, key) => sum + key.weight, 0);
  return total === 0 ? 0 : keys.reduce((sum, key) => sum + key.weight * matchOf(key, place), 0) / total;
}

/** Values the question itself states are not the answer (its own year, its own amount). */
function freshSpanIn(module: LanguageModule, type: AnswerType, question: string, clause: string): boolean {
  const asked = normalize(question);
  return module
    .spans(clause, type)
    .some((span) => span.text.trim().length > 0 && !asked.includes(normalize(span.text).trim()));
}

interface Clause extends Place {
  chunk: number;
  sentence: number;
  text: string;
  attribute: number;
}

export function readAttribute(
  need: string,
  evidence: readonly Evidence[],
  entities: readonly string[],
  answerType: AnswerType,
): AttributeReading {
  const asked = askedPart(need);
  const module = moduleFor(asked);
  const entityTerms = new Set(
    [...entities, ...identifiersIn(asked)].flatMap((entity) => [
      ...analyzeQuery(entity),
      ...analyzeForIndex(entity).split(' '),
    ]),
  );
  const ownTerms = new Set(module.focus(asked).key_terms);
  const own = [...ownTerms];
  // A synonym that is one of the question's own words is not a paraphrase of another of them: "call" (for
  // "phone") in "the security on-call" is the question's own topic word.
  const expansions = new Map(
    [...(module.expansions?.(asked) ?? new Map<string, string[][]>())].map(
      ([term, synonyms]) => [term, synonyms.filter((synonym) => !synonym.some((part) => ownTerms.has(part)))] as const,
    ),
  );
  const chunkTerms = evidence.map((chunk) => termSet(`${chunk.title}\n${chunk.heading}\n${chunk.text}`));
  const n = chunkTerms.length;
  // The words few passages state are the specific ones: "signed" over "contract" in a set of contract passages.
  const weigh = (term: string): Term => ({
    term,
    weight: 1 + Math.log(1 + n / (1 + chunkTerms.filter((terms) => terms.has(term)).length)),
    synonyms: expansions.get(term) ?? [],
  });
  const keys = own.map(weigh);
  const attribute = keys.filter((key) => !entityTerms.has(key.term)).sort((a, b) => b.weight - a.weight);
  const namesAll = evidence.map((chunk) => {
    const haystack = normalize(`${chunk.doc_id} ${chunk.title} ${chunk.heading} ${chunk.text}`);
    return entities.every((entity) => haystack.includes(normalize(entity)));
  });

  const clauses: Clause[] = [];
  evidence.forEach((chunk, index) => {
    const headed =
      module.code === 'en'
        ? headedSentences(chunk.text)
        : headedSentences(chunk.text).flatMap(({ text, heading }) =>
            module.sentences(text).map((sentence) => ({ text: sentence, heading })),
          );
    headed.forEach(({ text: sentence, heading }, sentenceIndex) => {
      const headingTerms = termSet(heading || chunk.heading);
      for (const text of clausesOf(sentence, module.code)) {
        const place = { terms: termSet(text), heading: headingTerms };
        clauses.push({ chunk: index, sentence: sentenceIndex, text, ...place, attribute: coverage(attribute, place) });
      }
    });
  });
  clauses.sort((a, b) => b.attribute - a.attribute);
  const best = clauses[0];
  const second = clauses.find((clause) => best && (clause.chunk !== best.chunk || clause.sentence !== best.sentence));
  const complete = attribute.length > 0 && clauses.some((clause) => attribute.every((key) => matchOf(key, clause) > 0));
  const withEntity = clauses.find((clause) => namesAll[clause.chunk]);
  const typed = VALUE_TYPES.has(answerType);
  const near =
    typed &&
    clauses
      .slice(0, SPAN_CLAUSES)
      .some((clause) => clause.attribute >= 0.5 && freshSpanIn(module, answerType, asked, clause.text));
  const focusHead = module.code === 'en' ? englishHead(asked) : { words: [], kind: 'noun' as const, terms: [] };
  const headTerms = focusHead.terms;
  const head = headTerms.map((term) => ({ term, weight: 1, synonyms: expansions.get(term) ?? [] }));
  const headClauses = clauses
    .filter((clause) => namesAll[clause.chunk])
    .map((clause) => ({ clause, stated: coverage(head, clause) }))
    .sort((a, b) => b.stated - a.stated);
  const headStated =
    head.length === 0 ? (withEntity?.attribute ?? (attribute.length === 0 ? 1 : 0)) : (headClauses[0]?.stated ?? 0);
  const headValue =
    typed &&
    head.length > 0 &&
    headClauses
      .slice(0, SPAN_CLAUSES)
      .some(({ clause, stated }) => stated >= SYNONYM_CREDIT && freshSpanIn(module, answerType, asked, clause.text));
  const rest = keys.filter((key) => !headTerms.includes(key.term));
  const restBest =
    head.length === 0 || rest.length === 0
      ? undefined
      : clauses.map((clause) => ({ clause, stated: coverage(rest, clause) })).sort((a, b) => b.stated - a.stated)[0];
  const topicOnly = restBest ? restBest.stated * (1 - coverage(head, restBest.clause)) : 0;
  const keyShare =
    keys.length === 0
      ? 0
      : Math.max(0, ...clauses.map((clause) => keys.filter((key) => matchOf(key, clause) > 0).length / keys.length));
  const union = new Set(chunkTerms.flatMap((terms) => [...terms]));
  // A question with no attribute beyond its entities ("Tell me about HIP-12") asks for the topic itself.
  const none = attribute.length === 0;
  return {
    attributeCoverage: none ? 1 : (best?.attribute ?? 0),
    attributeComplete: none || complete,
    attributeWithEntity: none ? (namesAll.some(Boolean) ? 1 : 0) : (withEntity?.attribute ?? 0),
    typedNearAttribute: near,
    keyShare,
    askedUnion: coverage(keys, { terms: union }),
    margin: none ? 0 : (best?.attribute ?? 0) - (second?.attribute ?? 0),
    headStated,
    topicOnly,
    headValue: head.length === 0 ? near : headValue,
    headWords: headTerms.length > 0 ? focusHead.words : [],
    headKind: focusHead.kind,
    attributeTerms: attribute.map((key) => key.term),
  };
}
