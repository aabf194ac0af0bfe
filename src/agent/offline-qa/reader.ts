import { analyzeForIndex, analyzeQuery } from '../../text/analyzer.ts';
import { identifiersIn } from '../../text/identifiers.ts';
import type { AnswerSpan, LanguageModule, QuestionFocus } from '../../text/language.ts';
import { moduleFor } from '../../text/languages.ts';
import { headedSentences } from '../../text/sentences.ts';
import type { Evidence } from '../../domain/evidence.ts';
import { isDateline, isInterrogative, novelty, otherYear, sameValue, yearsIn } from './reader-signals.ts';
import { CONTEXT_WEIGHT, splitContext, withIdentifiers } from './reader-question.ts';

/**
 * The offline reader: for one information need, the evidence sentences scored against the question's focus (its
 * key terms, their synonyms, its entities, the answer type it asks for) and the answer spans of that type found in
 * the best of them. Everything the sufficiency model weighs is measured here, once, so the judge and the answer
 * read the evidence the same way.
 */

/** Credit for a key term found only as a synonym, only in the sentence's heading, or only in the chunk's title. */
const SYNONYM_CREDIT = 0.75;
const HEADING_CREDIT = 0.6;
const TITLE_CREDIT = 0.5;
/** Candidates kept per need, and those whose spans are looked for (names cost a compromise call each). */
const CANDIDATES_KEPT = 6;
const SPAN_CANDIDATES = 8;
/** Credit for a key term stated only by the sentence before or after (a passage goes on about its topic). */
const NEIGHBOUR_CREDIT = 0.5;
/** Ranking weights: what a sentence's neighbours add, each other passage stating the same value, a question asked back, an echo of the question. */
const NEIGHBOUR_WEIGHT = 0.5;
const VOTE_WEIGHT = 0.08;
/** A value of the asked type: a fixed credit, and more the more of the question its own clause states. */
const SPAN_BONUS = 0.15;
const NEAR_BONUS = 0.25;
/** A yes/no, list or definition "span" (a polarity word, an enumeration, a copula's complement) is in most sentences: a flat credit. */
const FLAT_SPAN_BONUS = 0.25;
const QUANTITY_TYPES = new Set(['number', 'amount', 'date', 'duration']);
const VALUE_TYPES = new Set(['number', 'amount', 'date', 'duration', 'person', 'organization', 'place']);
const MAX_VOTES = 3;
const INTERROGATIVE_PENALTY = 0.3;
const ECHO_PENALTY = 0.3;
const OTHER_YEAR_PENALTY = 0.3;
/** Below this share of terms of its own, a sentence only repeats the question. */
const ECHO_NOVELTY = 0.3;
/** A sentence whose coverage reaches this share of the best one's agrees that the evidence is about the need. */
const AGREEING_SHARE = 0.8;

export interface Candidate {
  chunk: Evidence;
  /** The chunk's place in the evidence (0 = ranked first). */
  rank: number;
  sentence: string;
  heading: string;
  /** Weighted share of the need's key terms the sentence states (its heading and title count for less). */
  coverage: number;
  /** Spans of the asked type in the sentence that the question does not itself contain. */
  spans: AnswerSpan[];
  /** Coverage counting the neighbouring sentences' key terms at part credit (ranking only). */
  context: number;
  /** Other chunks whose sentences state one of this sentence's values. */
  votes: number;
  /** Key-term coverage of the clause around the sentence's nearest value (0 without values). */
  nearness: number;
  /** The sentence asks a question or only repeats the question's words. */
  idle: { interrogative: boolean; echo: boolean; otherYear: boolean };
  score: number;
}

export interface Reading {
  need: string;
  focus: QuestionFocus;
  /** Best first. */
  candidates: Candidate[];
  /** Weighted key-term coverage of the best single chunk (text, heading and title). */
  chunkCoverage: number;
  /** Weighted key-term coverage of all the evidence together. */
  unionCoverage: number;
  /** Share of the question's entities the best candidate's chunk names (1 when the question names none). */
  entityCoverage: number;
  /** Chunks other than the best one whose best sentence is about as close to the need. */
  agreeing: number;
  /** Other chunks whose close sentences state the same value as the answer's (0 when no value of the asked type). */
  spanAgreeing: number;
  /** Whether the best candidate (sentence or its heading) states the question's most specific own key term. */
  specificStated: boolean;
  /** Whether the best candidate's chunk (text, heading, title) states every key term of the question itself. */
  chunkComplete: boolean;
  /** Whether some chunk names every entity of the question. */
  entitiesFound: boolean;
}

const termsOf = (text: string): Set<string> => new Set(analyzeForIndex(text).split(' '));

const normalize = (text: string): string => text.normalize('NFKC').toLowerCase();

interface Weighted {
  term: string;
  weight: number;
  synonyms: string[][];
}

/** Key terms weighted by how few evidence chunks state them: the specific words of a need say more than its topic. */
function weighted(
  focus: QuestionFocus,
  expansions: Map<string, string[][]>,
  chunkTerms: readonly Set<string>[],
): Weighted[] {
  const n = chunkTerms.length;
  return focus.key_terms.map((term) => {
    const df = chunkTerms.filter((terms) => terms.has(term)).length;
    return { term, weight: 1 + Math.log(1 + n / (1 + df)), synonyms: expansions.get(term) ?? [] };
  });
}

function match(term: Weighted, terms: Set<string>): number {
  if (terms.has(term.term)) return 1;
  return term.synonyms.some((synonym) => synonym.every((part) => terms.has(part))) ? SYNONYM_CREDIT : 0;
}

function coverageIn(keys: readonly Weighted[], layers: readonly [Set<string>, number][]): number {
  const total = keys.reduce((sum, key) => sum + key.weight, 0);
  if (total === 0) return 0;
  let have = 0;
  for (const key of keys) {
    let best = 0;
    for (const [terms, credit] of layers) best = Math.max(best, match(key, terms) * credit);
    have += key.weight * best;
  }
  return have / total;
}

/** Spans of the asked type, without values the question itself states (its own year is not the answer). */
function freshSpans(module: LanguageModule, focus: QuestionFocus, question: string, sentence: string): AnswerSpan[] {
  if (focus.answer_type === 'any') return [];
  const asked = normalize(question);
  return module
    .spans(sentence, focus.answer_type)
    .filter(
      (span) =>
        span.text.trim().length > 0 && !asked.includes(normalize(span.text).trim()) && !isDateline(sentence, span),
    );
}

/** The clause of a sentence around a span: between the nearest clause punctuation on either side. */
function clauseOf(sentence: string, span: AnswerSpan): string {
  const before = sentence.slice(0, span.start);
  const from = Math.max(...[...before.matchAll(CLAUSE_BREAK)].map((m) => (m.index ?? 0) + m[0].length), 0);
  const rest = sentence.slice(span.end);
  const next = rest.search(CLAUSE_BREAK);
  const clause = sentence.slice(from, next < 0 ? sentence.length : span.end + next);
  // A value set off as an adverbial ("2022年1月1日，RCEP正式生效", "On 9 April, …") belongs to the clause it introduces.
  const own = clause.replace(span.text, '').replace(/[^\p{L}\p{N}]/gu, '');
  if (next < 0 || own.length > 8) return clause;
  const after = sentence.slice(span.end + next + 1);
  const following = after.search(CLAUSE_BREAK);
  return `${clause} ${following < 0 ? after : after.slice(0, following)}`;
}
const CLAUSE_BREAK = /[，,；;：:（）()]|\s[-–—]\s/gu;

/** Squashed for names however they are hyphenated or spaced (BERT-BASE, BERT BASE, BERTBASE). */
const squashed = (text: string): string => normalize(text).replace(/[^\p{L}\p{N}]+/gu, '');
const namesEntity = (haystack: string, entity: string): boolean =>
  haystack.includes(normalize(entity)) ||
  (squashed(entity).length >= 4 && squashed(haystack).includes(squashed(entity)));

/** Reads the evidence for one need. */
export function read(need: string, evidence: readonly Evidence[]): Reading {
  const { asked, context } = splitContext(need);
  const module = moduleFor(asked || need);
  const own = module.focus(asked || need);
  const contextFocus = context ? module.focus(context) : undefined;
  const contextTerms = (contextFocus?.key_terms ?? []).filter((term) => !own.key_terms.includes(term));
  const focus = withIdentifiers(asked || need, { ...own, key_terms: [...own.key_terms, ...contextTerms] });
  const expansions = module.expansions?.(asked || need) ?? new Map<string, string[][]>();
  const chunkTerms = evidence.map((chunk) => termsOf(`${chunk.title}\n${chunk.heading}\n${chunk.text}`));
  const keys = weighted(focus, expansions, chunkTerms).map((key) =>
    contextTerms.includes(key.term) ? { ...key, weight: key.weight * CONTEXT_WEIGHT } : key,
  );

  const all: Candidate[] = [];
  let chunkCoverage = 0;
  let entitiesFound = focus.entities.length === 0;
  const chunkEntityShare = new Map<string, number>();
  const ownKeys = keys.filter((key) => !contextTerms.includes(key.term));
  // The rarest of the question's own words that is not an identifier (those are entities): what a passage about
  // the same topic most often lacks.
  const idTerms = new Set(identifiersIn(asked || need).map((id) => analyzeQuery(id)[0]));
  const specific = [...ownKeys].filter((key) => !idTerms.has(key.term)).sort((a, b) => b.weight - a.weight)[0];
  const specificIn = (candidate: Candidate): boolean => {
    if (!specific) return true;
    const terms = termsOf(`${candidate.heading}\n${candidate.sentence}`);
    return match(specific, terms) > 0;
  };
  const completeChunks = new Set<string>();
  const questionTerms = termsOf(asked || need);
  const neighbours = new Map<Candidate, Set<string>[]>();
  const askedYears = yearsIn(asked || need);
  evidence.forEach((chunk, rank) => {
    const titleTerms = termsOf(`${chunk.title} ${chunk.doc_id.replace(/[/_.-]+/g, ' ')}`);
    const headingTerms = termsOf(chunk.heading);
    chunkCoverage = Math.max(
      chunkCoverage,
      coverageIn(keys, [
        [chunkTerms[rank] as Set<string>, 1],
        [titleTerms, 1],
      ]),
    );
    // Complete means the words themselves: a synonym ("end" for "termination") may paraphrase, or may be another thing.
    if (ownKeys.every((key) => (chunkTerms[rank] as Set<string>).has(key.term) || titleTerms.has(key.term)))
      completeChunks.add(chunk.chunk_id);
    const haystack = normalize(`${chunk.doc_id} ${chunk.title} ${chunk.heading} ${chunk.text}`);
    const named = focus.entities.filter((entity) => namesEntity(haystack, entity)).length;
    const share = focus.entities.length === 0 ? 1 : named / focus.entities.length;
    chunkEntityShare.set(chunk.chunk_id, share);
    if (share === 1) entitiesFound = true;
    // Headings come from the markdown structure in every language; the module splits what lies under them.
    const sentences =
      module.code === 'en'
        ? headedSentences(chunk.text)
        : headedSentences(chunk.text).flatMap(({ text, heading }) =>
            module.sentences(text).map((sentence) => ({ text: sentence, heading })),
          );
    const sentenceTerms = sentences.map(({ text }) => termsOf(text));
    sentences.forEach(({ text, heading }, index) => {
      const ownHeading = heading ? termsOf(heading) : headingTerms;
      const own = sentenceTerms[index] as Set<string>;
      const coverage = coverageIn(keys, [
        [own, 1],
        [ownHeading, HEADING_CREDIT],
        [titleTerms, TITLE_CREDIT],
      ]);
      // Neighbours under the same heading: "Fixed on 9 April." follows the sentence that names the problem.
      const near = [index - 1, index + 1]
        .filter((at) => sentences[at] && sentences[at]?.heading === heading)
        .map((at) => sentenceTerms[at] as Set<string>);
      const context = near.length
        ? coverageIn(keys, [
            [own, 1],
            [new Set(near.flatMap((terms) => [...terms])), NEIGHBOUR_CREDIT],
            [ownHeading, HEADING_CREDIT],
            [titleTerms, TITLE_CREDIT],
          ])
        : coverage;
      if (context === 0) return;
      const idle = {
        interrogative: isInterrogative(text),
        echo: novelty(own, questionTerms) < ECHO_NOVELTY,
        otherYear: otherYear(text, askedYears),
      };
      const candidate: Candidate = {
        chunk,
        rank,
        sentence: text,
        heading: heading || chunk.heading,
        coverage,
        context,
        spans: [],
        votes: 0,
        nearness: 0,
        idle,
        score: coverage,
      };
      neighbours.set(candidate, near);
      all.push(candidate);
    });
  });

  // Spans only for the closest sentences: finding names costs a parse per sentence.
  all.sort((a, b) => b.context - a.context || a.rank - b.rank);
  const typed = focus.answer_type !== 'any';
  const valueTyped = VALUE_TYPES.has(focus.answer_type);
  for (const candidate of all.slice(0, typed ? SPAN_CANDIDATES * 2 : 0)) {
    candidate.spans = freshSpans(module, focus, need, candidate.sentence);
  }
  // Spans for each chunk's closest sentence too, so agreement between passages on a value can be counted.
  const seenChunks = new Set<string>();
  for (const candidate of all) {
    if (!typed || seenChunks.has(candidate.chunk.chunk_id)) continue;
    seenChunks.add(candidate.chunk.chunk_id);
    if (candidate.spans.length === 0) candidate.spans = freshSpans(module, focus, need, candidate.sentence);
  }
  // A value counts as the answer only near the focus: in a sentence (or under a heading) that states the
  // question's most specific word. "$86,000" under "Fees" is a fee, but not the termination fee that was asked.
  // Only where key terms are words: a CJK question's terms are character bigrams, whose rarest is often one that
  // straddles two words and says nothing.
  // The sentence before or after may carry it ("The billing job read … ." then "Fixed on 9 April.").
  // The anchor is the rarest of those words some passage states: a word no passage uses (the question's paraphrase,
  // "how quickly … reply" for "answer within") cannot tell one value from another.
  const anchor = [...ownKeys]
    .filter((key) => !idTerms.has(key.term) && chunkTerms.some((terms) => match(key, terms) > 0))
    .sort((a, b) => b.weight - a.weight)[0];
  const specificNear = (candidate: Candidate): boolean => {
    if (!anchor) return true;
    const terms = [termsOf(`${candidate.heading}\n${candidate.sentence}`), ...(neighbours.get(candidate) ?? [])];
    return terms.some((layer) => match(anchor, layer) > 0);
  };
  if (focus.language === 'en')
    for (const candidate of all) if (candidate.spans.length > 0 && !specificNear(candidate)) candidate.spans = [];
  // A value in the clause that states the question's words answers it; one in another clause of the same sentence
  // (a dateline, an aside) is about something else. Nearest values lead.
  for (const candidate of all) {
    if (candidate.spans.length === 0) continue;
    const near = candidate.spans.map((span) => ({
      span,
      near: coverageIn(keys, [[termsOf(clauseOf(candidate.sentence, span)), 1]]),
    }));
    near.sort((a, b) => b.near - a.near || a.span.start - b.span.start);
    // A value whose clause states none of the question's words is about something else (a dateline, an aside), and
    // one whose clause is about another year than the question's is another year's value.
    candidate.spans = near
      .filter(({ span }) => !otherYear(clauseOf(candidate.sentence, span), askedYears))
      .map(({ span }) => span);
    candidate.nearness = near[0]?.near ?? 0;
  }
  // A value several passages state is likelier the answer than one a single passage mentions in passing.
  // Only for quantities and dates: a name as common as the topic's country is stated by every passage alike.
  const withSpans = QUANTITY_TYPES.has(focus.answer_type) ? all.filter((candidate) => candidate.spans.length > 0) : [];
  for (const candidate of withSpans) {
    const others = new Set(
      withSpans
        .filter(
          (other) =>
            other.chunk.chunk_id !== candidate.chunk.chunk_id &&
            other.spans.some((span) => candidate.spans.some((own) => sameValue(own.text, span.text))),
        )
        .map((other) => other.chunk.chunk_id),
    );
    candidate.votes = others.size;
  }
  for (const candidate of all) {
    const entities = chunkEntityShare.get(candidate.chunk.chunk_id) ?? 0;
    candidate.score =
      candidate.coverage +
      // Neighbours bring a value next to its topic ("Fixed on 9 April."); a sentence with no value they do not help.
      (valueTyped && candidate.spans.length > 0 ? NEIGHBOUR_WEIGHT * (candidate.context - candidate.coverage) : 0) +
      (typed && candidate.spans.length > 0
        ? valueTyped
          ? SPAN_BONUS + NEAR_BONUS * candidate.nearness
          : FLAT_SPAN_BONUS
        : 0) +
      VOTE_WEIGHT * Math.min(MAX_VOTES, candidate.votes) +
      0.2 * entities +
      0.05 / (1 + candidate.rank) -
      (candidate.idle.interrogative ? INTERROGATIVE_PENALTY : 0) -
      (candidate.idle.echo ? ECHO_PENALTY : 0) -
      (candidate.idle.otherYear ? OTHER_YEAR_PENALTY : 0);
  }
  all.sort((a, b) => b.score - a.score);
  const candidates = all.slice(0, CANDIDATES_KEPT);
  const best = candidates[0];
  const bestPerChunk = new Map<string, number>();
  for (const candidate of all)
    bestPerChunk.set(
      candidate.chunk.chunk_id,
      Math.max(bestPerChunk.get(candidate.chunk.chunk_id) ?? 0, candidate.coverage),
    );
  const agreeing = best
    ? [...bestPerChunk].filter(
        ([id, coverage]) => id !== best.chunk.chunk_id && coverage >= best.coverage * AGREEING_SHARE,
      ).length
    : 0;
  const union = new Set(chunkTerms.flatMap((terms) => [...terms]));
  const value = candidates.slice(0, 2).find((candidate) => candidate.spans.length > 0)?.spans[0]?.text;
  const spanAgreeing = value
    ? new Set(
        all
          .filter(
            (candidate) =>
              candidate.chunk.chunk_id !== best?.chunk.chunk_id &&
              candidate.spans.some((span) => normalize(span.text) === normalize(value)),
          )
          .map((candidate) => candidate.chunk.chunk_id),
      ).size
    : 0;
  return {
    need,
    focus,
    candidates,
    chunkCoverage,
    unionCoverage: coverageIn(keys, [[union, 1]]),
    entityCoverage: best ? (chunkEntityShare.get(best.chunk.chunk_id) ?? 0) : 0,
    agreeing,
    spanAgreeing,
    chunkComplete: best ? completeChunks.has(best.chunk.chunk_id) : false,
    specificStated: best ? specificIn(best) : false,
    entitiesFound,
  };
}

/** The answer spans of a supporting sentence for a need, best first (what an extractive answer leads with). */
export function answerSpans(need: string, sentence: string): AnswerSpan[] {
  const module = moduleFor(need);
  return freshSpans(module, module.focus(need), need, sentence);
}
