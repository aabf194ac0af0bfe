import type { z } from 'zod';
import { gateThresholdsSchema } from '../../../config/agents-schema.ts';
import { normalizeForQuote, type Answer } from '../../../domain/answer.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { AnswerType } from '../../../text/language.ts';
import { memoryToSave } from '../memory/remember-intent.ts';
import { isSmallTalk } from '../small-talk.ts';
import { analyzeQuery } from '../../../text/analyzer.ts';
import { answerHead, closingLabel, listedValues, writtenAsNoun } from './answer-head.ts';
import { citedSentences, isTableRow, names, type CitedSentence } from './cited-reading.ts';
import { questionView, TYPED, type QuestionView } from './question-view.ts';
import { compound, extremeOf, SUPERLATIVE } from './value-choice.ts';
import { sameAs, termWeights, valueTies, type ValueTie } from './value-ties.ts';
import { chunkText, unnamedBy, type UnnamedBy } from './entity-ties.ts';
import { measuredType } from './measured-type.ts';
import { valuesOfHead } from './head-values.ts';
import { rowsAnswered, rowVerdict } from './row-verdict.ts';
import { quoteOf, statedIn, whyUntied } from './cited-statements.ts';
import { decomposeOffline } from '../../offline-qa/decompose-offline.ts';
import { narrowedTo, refuse, REGROUND_CHUNKS, type GateDecision } from './gate-decision.ts';
import { readNested } from './nested-question.ts';
import { multiNeed, type NeedVerdict } from './multi-need.ts';
import { computedMisfit, unusedQualifier } from './computed-kind.ts';
import { untoldDescription } from './described-thing.ts';

export type { GateDecision } from './gate-decision.ts';

/**
 * The evidence gate: every answer of every agent passes it before it is returned, whatever produced it (a model, an
 * offline strategy, SQL over a table, a combination). From the question and the cited evidence alone it lets the
 * answer through — narrowed to the one value the evidence ties to the question, with a confidence that says how
 * strongly — or turns it into a refusal that says what is missing. The rules (docs/agents.md, "The evidence gate"):
 * - the question's entities are named in the cited evidence, its identifiers in the chunk that states the value;
 * - the value is of the kind asked (a count for "how many", a date or time for "when" …) and stated in a cited
 *   sentence that also states the asked attribute (a quarter of its words at least, rarer words weighing more) and
 *   the asked noun of a "which X" question;
 * - one value: of the values the cited sentences tie to the question, the nearest to its words and entities, unless
 *   another is about as near (then nothing decides between them and the gate refuses) — save values one sentence
 *   adds up, and the extreme asked for by "maximum"/"minimum";
 * - a computed value (SQL over cited rows) is not stated in any sentence: the table route checked that the
 *   computation answers the question (table-fit.ts); here it must still be one value about entities the rows name.
 */

export interface GateInput {
  question: string;
  answer: Answer;
  /** The run's evidence (what the principal may read); citations point into it. */
  evidence: readonly Evidence[];
  /** The answer's value was computed by SQL over the cited rows. */
  computed?: boolean;
  /** The columns the computation read its value from (none for a count of rows). */
  computedFrom?: readonly string[];
  /** The SQL that computed it: the rows it counted or chose are the ones its conditions keep. */
  computedSql?: string | undefined;
  /** The run computed a value by SQL (a table answer the table route already gated), whatever the answer cites. */
  tableValue?: boolean;
  /**
   * The answer came from the table route: its cited rows are the ones its SQL selected (a first, a maximum, a lookup)
   * and table-fit checked the computation. Other answers that cite rows are held to what one row's cell states.
   */
  fromTable?: boolean;
  /** The run proposed a side effect (save_memory): an uncited answer that reports on it states no document fact. */
  sideEffect?: boolean;
  /** The needs the run split the question into: with several, the answer gives one value per need. */
  needs?: readonly string[];
  /**
   * Offline strategies only: when the cited passage ties no value to the question, the best-ranked evidence may (the
   * offline reader quotes whole sentences and can cite a neighbour of the passage that states it). A model's answer is
   * judged on what it cited.
   */
  reground?: boolean;
  /** The nested question this one resolves (its hops' answers filled in from the cited evidence). */
  nestedIn?: string;
  /** The operating point (default DEFAULT_GATE_THRESHOLDS). */
  thresholds?: GateThresholds;
}

/**
 * The gate's operating point (`agents.evidenceGateThresholds`): the share of the asked attribute's words a sentence
 * must state beside the value, and how near a rival value's tie may come to the best one's before nothing decides
 * between them. Higher values refuse more and answer wrongly less.
 */
export type GateThresholds = z.infer<typeof gateThresholdsSchema>;
export const DEFAULT_GATE_THRESHOLDS: GateThresholds = gateThresholdsSchema.parse({});
/** The most words a name answering a nested question takes ("Victoria Falls", "the Finnish markka"). */
const NAMED_WORDS = 6;
/** A sentence stating this much of the attribute need not name the asked noun itself ("which fields" of a body). */
const NOUN_WAIVER = 0.67;

/** How the gate reads one question against the run's evidence. */
interface Reading {
  view: QuestionView;
  /** The question as asked (a nested one's, before its hops were resolved): what it names is no answer to it. */
  asked: string;
  weights: ReadonlyMap<string, number>;
  unnamed: UnnamedBy;
  thresholds: GateThresholds;
}

/**
 * Whether a tie's sentence states what the question asks about: enough of the attribute and the asked noun (or much
 * of the attribute without it). "What does SEV-2 mean …?" asks about its identifier: the sentence (or its heading) names it.
 */
function statesAttribute({ view, thresholds }: Reading, tie: ValueTie): boolean {
  if (definesIdentifier(view))
    return view.identifiers.every((id) => names(`${tie.sentence.heading} ${tie.sentence.text}`, id));
  const listsMembers = view.type === 'list' && LISTED_MEMBERS.test(tie.sentence.text);
  return tie.attribute >= thresholds.attribute && (tie.noun || listsMembers || tie.attribute >= NOUN_WAIVER);
}
/**
 * A sentence listing code names ("must contain `customer_id` and a non-empty `items` array") or three items or more
 * names the members of the kind a list question asks ("Which fields …"), not the kind itself.
 */
const LISTED_MEMBERS = /`[^`]+`[^`]*`[^`]+`|[^,;]+,[^,;]+,[^,;]*\b(?:and|or)\b/u;
/** Words that ask what a name means, not about an attribute of what it names. */
const MEANING = new Set(analyzeQuery('mean means meaning stand stands definition define defined refer refers'));
/**
 * "What does SEV-2 mean?", "What is HIP-12?" ask what the identifier itself is; "What is the liability of
 * CT-2024-0193?" asks an attribute of the contract it names, read as any other.
 */
const definesIdentifier = (view: QuestionView): boolean =>
  view.type === 'definition' &&
  view.identifiers.length > 0 &&
  (view.attribute.length === 0 || view.attribute.some((term) => MEANING.has(term)));

/** Whether a tie answers the question: it states what is asked, about what the question names. */
const tiedTo =
  (reading: Reading) =>
  (tie: ValueTie): boolean =>
    statesAttribute(reading, tie) && reading.unnamed(tie).length === 0;

/** The texts term weights are counted over: each chunk's title, heading and text. */
const weightTexts = (evidence: readonly Evidence[]): string[] =>
  evidence.map((item) => `${item.title}\n${item.heading}\n${item.text}`);

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Confidence from how much of the attribute the sentence states and how clearly the value beats its rivals. */
function confidenceOf(tie: ValueTie, rival: ValueTie | undefined, typed: boolean): number {
  const margin = rival ? 1 - rival.score / tie.score : 1;
  const base = typed ? 0.5 + 0.4 * tie.attribute : 0.45 + 0.3 * tie.attribute;
  return round2(Math.max(0.3, base - 0.2 * Math.max(0, 0.5 - margin)));
}

/** The cited sentences a citation's quote lies in (a model may quote part of one). */
function quotedSentences(answer: Answer, sentences: readonly CitedSentence[]): CitedSentence[] {
  const quotes = answer.citations.map((citation) => ({
    id: citation.chunk_id,
    quote: normalizeForQuote(citation.quote),
  }));
  return sentences.filter((sentence) => {
    const text = normalizeForQuote(sentence.text);
    return quotes.some(
      ({ id, quote }) => id === sentence.chunk.chunk_id && (text.includes(quote) || quote.includes(text)),
    );
  });
}

function best(ties: readonly ValueTie[]): ValueTie | undefined {
  return ties.reduce<ValueTie | undefined>((top, tie) => (!top || tie.score > top.score ? tie : top), undefined);
}

export function gateAnswer(input: GateInput): GateDecision {
  const { question, answer } = input;
  if (!answer.answerable) return { verdict: 'pass', answer, reason: 'a refusal' };
  if (isSmallTalk(question) || memoryToSave(question) || (input.sideEffect && answer.citations.length === 0))
    return { verdict: 'pass', answer, reason: 'no claim about the documents' };
  const view = questionView(question);
  const citedIds = new Set(answer.citations.map((citation) => citation.chunk_id));
  const cited = input.evidence.filter((item) => citedIds.has(item.chunk_id));
  if (cited.length === 0) return refuse(view, 'no cited evidence states it', 'no cited evidence');
  const sentences = citedSentences(cited, view);
  const texts = weightTexts(input.evidence);
  const weights = termWeights(view, texts);
  const thresholds = input.thresholds ?? DEFAULT_GATE_THRESHOLDS;
  const head = answerHead(answer.answer);
  const listed = listedValues(head);

  const misfit = input.computed || input.fromTable ? computedMisfit(view, answer.answer) : undefined;
  if (misfit) return { ...refuse(view, misfit, 'computed value not of the kind asked'), final: true };
  const unused = input.computed ? unusedQualifier(question, input.computedSql) : undefined;
  if (unused) return refuse(view, `the table query keeps rows of any "${unused}"`, 'computed: a qualifier unused');
  if (input.computed && !statedIn(head, cited)) {
    const absent = view.entities.filter(
      (entity) => !cited.some((chunk) => names(`${chunk.heading} ${chunk.text}`, entity)),
    );
    if (absent.length)
      return refuse(view, `the rows found do not name ${absent.join(', ')}`, `rows lack ${absent.join(', ')}`);
    if (listed.length > 1 && view.type !== 'list' && (input.needs?.length ?? 1) <= 1)
      return refuse(view, `the rows give several values (${listed.join('; ')})`, 'several computed values');
    // The value comes from a column the question names: a "maximum sequence length" is no GLUE score column.
    const from = input.computedFrom ?? [];
    const asked = new Set([...view.terms, ...analyzeQuery(question)]);
    if (from.length > 0 && !from.some((column) => analyzeQuery(column).some((term) => asked.has(term))))
      return refuse(view, `the rows found give ${from.join(', ')}, which it does not ask`, 'column not asked');
    return {
      verdict: 'answer',
      answer: { ...answer, confidence: Math.min(answer.confidence, 0.85) },
      reason: 'computed over the cited rows',
    };
  }

  const type: AnswerType = measuredType(view);
  const typed = TYPED.has(type);
  // The question's own needs when the run did not split it: an answer to one of three asked fees answers no question.
  const needs = (input.needs?.length ?? 0) > 1 ? (input.needs ?? []) : decomposeOffline(question);
  // An identifier names the record itself ("the billing problem of HIP-12" is HIP-12's): nothing is nested.
  // A yes-or-no question asks no hop's value ("Is the Moon the only Earth's satellite?" is no question about the
  // satellite of Earth).
  if (needs.length <= 1 && !input.fromTable && !input.nestedIn && view.identifiers.length === 0 && type !== 'yes_no') {
    const linking = input.reground ? [...cited, ...regroundChunks(input.evidence, cited)] : cited;
    const nested = readNested(question, linking);
    if (nested && 'unlinked' in nested)
      return refuse(view, `the cited evidence does not answer "${nested.unlinked}"`, 'nested: a hop unlinked');
    if (nested) {
      const decision = gateAnswer({ ...input, question: nested.resolved, nestedIn: question });
      return { ...decision, reason: `nested (${nested.resolved}): ${decision.reason}` };
    }
    const untold = untoldDescription(view, linking.map(chunkText), weights);
    if (untold) return refuse(view, `the cited evidence does not say which is ${untold}`, 'described thing untold');
  }
  // A row states a cell, never the yes or no a question about rows asks ("was X listed after Y?").
  if (type === 'yes_no' && answer.citations.every((c) => isTableRow(c.quote)) && computedMisfit(view, answer.answer))
    return { ...refuse(view, 'a table row states no yes or no', 'yes/no quoted from a row'), final: true };
  const rows = input.fromTable ? [] : rowsAnswered(quotedSentences(answer, sentences));
  // An offline answer quoting rows for a split question is read need by need ("Which customer placed A-1003, and
  // what was its total?" asks two cells of the row).
  const rowsPerNeed = needs.length > 1 && input.reground === true;
  if (rows.length && !rowsPerNeed) {
    const verdict = rowVerdict(view, type, answer, rows, head, input);
    if (verdict) return verdict;
  }
  if (needs.length > 1) {
    const split = { view, needs, answer, sentences, evidence: cited, texts, thresholds, rows, input };
    return multiNeed(view, needs, answer, needVerdict(split), {
      tableValue: input.tableValue ?? false,
      offline: input.reground === true,
      listed,
    });
  }

  // A nested question's resolved last hop names its bridge: the value is stated about it, not bridged again.
  const bridging = { bridging: input.nestedIn === undefined, weights };
  const reading: Reading = {
    view,
    asked: input.nestedIn ?? question,
    weights,
    unnamed: unnamedBy(view, cited, bridging),
    thresholds,
  };
  if (!typed) {
    // A nested question ("the waterfall in the country where the Bubye River is found") asks for the thing its last
    // hop names, which a sentence quoted about the hop's subject does not give: it takes a short named answer.
    if (input.nestedIn && head.split(/\s+/u).length > NAMED_WORDS)
      return refuse(view, 'the answer names nothing the question asks for', 'nested: a sentence for a name');
    return untypedVerdict(reading, answer, sentences);
  }

  const verdict = typedVerdict(reading, answer, sentences, type, head, listed, !input.reground);
  if (verdict.verdict === 'refuse' && input.reground) {
    // The offline lead may give a value its own passage does not tie (a "two" of "two model sizes"): the value that
    // passage (or, failing it, the best-ranked evidence) ties to the question is the answer.
    const citedFirst = [...cited, ...regroundChunks(input.evidence, cited)];
    const regrounded = typedVerdict(
      { ...reading, unnamed: unnamedBy(view, citedFirst, bridging) },
      { ...answer, answer: '', citations: [] },
      citedSentences(citedFirst, view),
      type,
      '',
      [''],
    );
    if (regrounded.verdict === 'answer') return { ...regrounded, reason: `re-grounded: ${regrounded.reason}` };
  }
  return verdict;
}

/** An untyped question's verdict: a quoted sentence that states the asked attribute about the entities asked. */
function untypedVerdict(reading: Reading, answer: Answer, sentences: readonly CitedSentence[]): GateDecision {
  const { view, weights, unnamed } = reading;
  const quoted = quotedSentences(answer, sentences);
  const ties = valueTies(view, quoted.length ? quoted : sentences, 'any', weights);
  const head = answerHead(answer.answer);
  const namedAsNoun = (tie: ValueTie): boolean =>
    tie.attribute >= reading.thresholds.attribute &&
    unnamed(tie).length === 0 &&
    writtenAsNoun(view, head, tie.sentence.text);
  const tied = ties.filter((tie) => tiedTo(reading)(tie) || namedAsNoun(tie));
  const top = best(tied);
  if (!top)
    return refuse(view, whyUntied(view, ties, sentences, unnamed), 'no cited sentence states the asked attribute');
  return {
    verdict: 'answer',
    answer: { ...answer, confidence: confidenceOf(top, undefined, false) },
    reason: `stated in ${top.sentence.chunk.chunk_id}`,
    statedBy: quoteOf(top),
  };
}

/** A typed question's verdict on the sentences of the cited evidence. */
function typedVerdict(
  reading: Reading,
  answer: Answer,
  sentences: readonly CitedSentence[],
  type: AnswerType,
  head: string,
  listed: readonly string[],
  modelChose = false,
): GateDecision {
  const { view, weights, unnamed, thresholds } = reading;
  const headValues = valuesOfHead(view, head, type, reading.asked);
  const ties = valueTies(
    view,
    sentences,
    type,
    weights,
    headValues.map((value) => value.text),
  );
  // An answer that gives no value of the asked kind has not answered ("Who …?" answered with a sentence about the film).
  if (head && headValues.length === 0)
    return refuse(view, `the answer gives no ${type} for it`, `no ${type} in the answer`);
  const given = headValues.length ? ties.filter((tie) => headValues.some((value) => sameAs(value.text, tie))) : ties;
  if (given.length === 0)
    return refuse(
      view,
      `the cited evidence does not state ${headValues.map((v) => v.text).join(', ') || `a ${type}`} for it`,
      'value not in the cited evidence',
    );
  const tied = given.filter(tiedTo(reading));
  const nearest = best(tied);
  if (!nearest) return refuse(view, whyUntied(view, given, sentences, unnamed), 'value not tied to the question');
  // "What is the maximum sequence length …?": of the values tied about as well, the largest (the smallest for a minimum).
  const extreme = extremeOf(view, ties, nearest, tiedTo(reading));
  if (extreme && head && !sameAs(nearest.value, extreme))
    return refuse(
      view,
      `the evidence states ${extreme.value} beside ${nearest.value}`,
      `not the ${view.question.match(SUPERLATIVE)?.[0]}`,
    );
  const top = extreme ?? nearest;
  const rivals = ties.filter(
    (tie) => !sameAs(top.value, tie) && tie.attribute >= top.attribute && unnamed(tie).length === 0,
  );
  const rival = best(rivals);
  // A maximum or minimum asked is decided by the values themselves, not by which is nearer.
  // A model that read the question and gives one value the evidence ties to it has decided between rivals the
  // gate cannot tell apart ("2872.1亿元" beside "4.22亿人次"); the gate decides only for answers that give several
  // values or none (an offline sentence), where nothing else has.
  const committed = modelChose && headValues.length === 1 && listed.length === 1;
  const undecided = rival !== undefined && !extreme && !committed && rival.score >= thresholds.ambiguity * top.score;
  if (undecided && compound(top, rival)) {
    // "a fixed monthly fee of $12,500 plus $4.20 per parcel": the values add up to one answer, the sentence states it.
    const citation = quoteOf(top);
    return {
      verdict: 'answer',
      answer: {
        ...answer,
        answer: `${citation.quote} [1]${closingLabel(answer.answer)}`,
        answerable: true,
        confidence: confidenceOf(top, rival, true),
        citations: [citation],
        missing_information: [],
      },
      reason: `one sentence adds ${top.value} and ${rival.value}`,
    };
  }
  if (undecided)
    return refuse(
      view,
      `the evidence gives several values (${top.value}; ${rival.value}) and ties none to the question`,
      `ambiguous: ${top.value} ${top.score.toFixed(2)} vs ${rival.value} ${rival.score.toFixed(2)}`,
    );
  const confidence = confidenceOf(top, rival, true);
  const onlyValue =
    headValues.length > 0 && headValues.every((value) => sameAs(top.value, value)) && listed.length === 1;
  if (onlyValue)
    return {
      verdict: 'answer',
      answer: { ...answer, confidence },
      reason: `${top.value} in ${top.sentence.chunk.chunk_id}`,
    };
  return narrowedTo(
    answer,
    top.value,
    quoteOf(top),
    confidence,
    `narrowed to ${top.value} (${top.sentence.chunk.chunk_id})`,
  );
}

/** The best-ranked evidence an offline answer may be re-grounded in, beyond what it cites. */
const regroundChunks = (evidence: readonly Evidence[], cited: readonly Evidence[]): Evidence[] =>
  evidence.slice(0, REGROUND_CHUNKS).filter((chunk) => !cited.includes(chunk));

/** A split question and what the gate reads its needs against. */
interface SplitQuestion {
  view: QuestionView;
  needs: readonly string[];
  answer: Answer;
  sentences: readonly CitedSentence[];
  evidence: readonly Evidence[];
  texts: readonly string[];
  thresholds: GateThresholds;
  /** The table rows the answer quotes (none when it quotes sentences). */
  rows: readonly CitedSentence[];
  input: GateInput;
}

/** One need of a split question read against the cited evidence by the gate's own rules. */
function needVerdict(split: SplitQuestion): (need: string) => NeedVerdict {
  const { view, needs, answer, sentences, evidence, texts, thresholds, rows, input } = split;
  // A record the question names that no need repeats ("the daily meal limit" of a split that lost "of X") is still
  // what every need asks about.
  const orphans = view.identifiers.filter((id) => !needs.some((need) => need.includes(id)));
  return (need) => {
    const own = questionView(need);
    const needView = orphans.length ? { ...own, identifiers: [...own.identifiers, ...orphans] } : own;
    const type = measuredType(needView);
    const fromRows = rows.length ? rowVerdict(needView, type, answer, rows, '', input) : undefined;
    if (fromRows) return { decision: fromRows, typed: true };
    const weights = termWeights(needView, texts);
    const reading: Reading = {
      view: needView,
      asked: need,
      weights,
      unnamed: unnamedBy(needView, evidence, { weights }),
      thresholds,
    };
    const typed = TYPED.has(type);
    const decision = typed
      ? typedVerdict(reading, { ...answer, answer: '' }, sentences, type, '', [''])
      : untypedVerdict(reading, answer, sentences);
    return { decision, typed };
  };
}
