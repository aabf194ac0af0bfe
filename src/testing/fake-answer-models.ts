import { normalizeAnswerText } from '../eval/layers/normalize-answer-text.ts';
import type { Received } from './fake-llm-server.ts';

/**
 * Two fake chat models for `FakeLlmServer.respond`, to measure what the agents do with a model's answers (issue 25):
 * fakes of the provider, not of Evident, so every agent runs its real graph, prompts, parsers and checks.
 *
 * - `overconfidentModel()` answers every question from the best-ranked (first) evidence passage of its prompt and
 *   never refuses: the passage's first sentence, confidence 0.95, one citation quoting that sentence exactly; every
 *   judging step says the evidence suffices.
 * - `honestModel(gold)` knows each question's gold (its values, or the documents that hold the answer): it answers
 *   with the gold value, citing the sentence of a passage in its prompt that contains it (copied exactly), and refuses
 *   (answerable false, confidence 0, what is missing) when no passage holds it or the question has no answer.
 *
 * Both answer each structured step by the schema the request names (OpenAI `json_schema.name`; controllable's steps
 * are named by their node) from the prompt text alone, and `react` in the text protocol (Thought / Action / Action
 * Input, then Final Answer), which react accepts from a model that makes no native tool call. Each model records,
 * per question, what it proposed: its judgement (sufficient or not) and its final answer (answered or refused).
 */

/** One expected value of a gold answer: a string, or alternatives of which any one will do (as `answer_contains`). */
export type GoldEntry = string | readonly string[];

export interface Gold {
  answerable: boolean;
  /** Values the answer must hold (every entry); absent: the answer is any sentence of a gold document's passage. */
  answers?: readonly GoldEntry[];
  /** Doc ids of the documents that hold the answer, used when there are no gold values. */
  docs?: readonly string[];
}

/** What a model proposed for one question: its last judgement of the evidence, and its last final answer. */
export interface Proposal {
  question: string;
  judged?: 'sufficient' | 'insufficient';
  final?: 'answered' | 'refused';
  answer?: string;
}

export interface FakeAnswerModel {
  readonly name: 'overconfident' | 'honest';
  /** A `FakeLlmServer.respond`. */
  respond(body: Received['body']): string | undefined;
  /** What the model proposed for `question`, if it was asked about it. */
  proposalFor(question: string): Proposal | undefined;
  /** Whether the model's own decision was to answer: its final answer, or its judgement when no final step came. */
  proposedAnswer(question: string): boolean;
  /** Forgets every proposal (between runs). */
  clear(): void;
  /** Schema names (or `(text protocol)`) the model was asked and does not know; it answered `{}` to them. */
  readonly unknownSteps: ReadonlySet<string>;
}

/** One evidence passage of a prompt: rag's and react's `[chunk_id: …] [doc_id: …]`, controllable's `[id: …] [chunk of …]`. */
export interface PromptPassage {
  id: string;
  docId: string;
  text: string;
}

const HEADER = /^\[chunk_id: ([^\]]+)\] \[doc_id: ([^\]]+)\][^\n]*$|^\[id: ([^\]]+)\] \[\w+ of ([^\]]+)\][^\n]*$/gm;
/** Where the evidence block ends: the labels the agents' prompts put after it. */
const TRAILER =
  /\n\n(?:Support: |Question: |Rejected answer: |Your previous answer's|Earlier answers:|Findings of the plan)/;

/** The evidence passages of a prompt, in order, each with the exact text shown under its header. */
export function passagesIn(text: string): PromptPassage[] {
  const headers = [...text.matchAll(HEADER)];
  return headers.map((match, i) => {
    const start = (match.index ?? 0) + match[0].length + 1;
    const end = headers[i + 1]?.index ?? text.length;
    const body = text.slice(start, Math.max(start, end));
    const cut = TRAILER.exec(body);
    return {
      id: (match[1] ?? match[3]) as string,
      docId: (match[2] ?? match[4]) as string,
      text: (cut ? body.slice(0, cut.index) : body).trim(),
    };
  });
}

/** A passage's sentences, each an exact substring of it (Latin and CJK sentence ends, and line breaks). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|(?<=[。！？；])|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 2);
}

const MAX_QUOTE = 240;

/** The first sentence of a passage worth quoting (not a bare heading), cut at a word boundary when very long. */
export function leadSentence(text: string): string {
  const sentences = sentencesOf(text);
  const sentence = sentences.find((s) => s.replace(/\s/g, '').length >= 12) ?? sentences[0] ?? text.trim();
  if (sentence.length <= MAX_QUOTE) return sentence;
  const cut = sentence.slice(0, MAX_QUOTE);
  const space = cut.lastIndexOf(' ');
  return space > MAX_QUOTE / 2 ? cut.slice(0, space) : cut;
}

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The question a step is about: its last `Question:` line, a rewrite's `Last question:`, a task, a query, or the text. */
export function questionOf(prompt: string): string {
  // A passage's own lines ("Question: …" in a FAQ) are evidence, not the step's question.
  const outside = passagesIn(prompt).reduce((text, passage) => text.replace(passage.text, ''), prompt);
  for (const label of [/^Question: (.+)$/gm, /^Last question: (.+)$/gm, /^Task: (.+)$/gm, /^Query: (.+)$/gm]) {
    const last = [...outside.matchAll(label)].at(-1)?.[1];
    if (last) return squash(last);
  }
  return squash(outside);
}

const contentOf = (message: { content: unknown }): string =>
  typeof message.content === 'string'
    ? message.content
    : message.content == null
      ? ''
      : JSON.stringify(message.content);

/** What one model says about one step: the facts it read from the prompt. */
interface Reading {
  question: string;
  passages: PromptPassage[];
}

/** One citable statement: the passage and the sentence of it a model quotes. */
interface Support {
  passage: PromptPassage;
  sentence: string;
}

/** A model's decision for a question on the passages it was shown: the answer and its support, or nothing to say. */
type Decision = { answer: string; support: Support[] } | undefined;

const REFUSAL = "I don't know based on the current evidence.";

function answerObject(question: string, decision: Decision, confidence: number) {
  if (!decision) {
    return {
      answer: REFUSAL,
      answerable: false,
      confidence: 0,
      citations: [],
      missing_information: [`the answer to "${question}" (no passage shown states it)`],
    };
  }
  return {
    answer: decision.answer,
    answerable: true,
    confidence,
    citations: decision.support.map(({ passage, sentence }) => ({
      chunk_id: passage.id,
      doc_id: passage.docId,
      source: passage.docId,
      quote: sentence,
    })),
    missing_information: [],
  };
}

function judgementObject(question: string, decision: Decision, idKey: 'chunk_id' | 'id') {
  return {
    supporting: (decision?.support ?? []).map(({ passage, sentence }) => ({ [idKey]: passage.id, sentence })),
    sufficiency: decision ? 0.95 : 0,
    reasons: [decision ? 'the evidence states it' : 'no passage states it'],
    missing_information: decision ? [] : [`the answer to "${question}" (no passage shown states it)`],
  };
}

/**
 * The shared machinery of both fakes: reading a request, answering every step the agents ask, and recording the
 * proposals; `decide` is the one thing the two models differ in.
 */
function fakeModel(
  name: FakeAnswerModel['name'],
  decide: (reading: Reading) => Decision,
  confidence: number,
): FakeAnswerModel {
  const proposals = new Map<string, Proposal>();
  const unknownSteps = new Set<string>();
  const record = (question: string, patch: Omit<Proposal, 'question'>): void => {
    const key = squash(question);
    proposals.set(key, { ...proposals.get(key), question: key, ...patch });
  };
  const judged = (question: string, decision: Decision): void =>
    record(question, { judged: decision ? 'sufficient' : 'insufficient' });
  const finalAnswer = (question: string, decision: Decision): void =>
    record(question, decision ? { final: 'answered', answer: decision.answer } : { final: 'refused', answer: REFUSAL });

  /** The steps asked through a named JSON schema. */
  function structured(schema: string, prompt: string): unknown {
    const question = questionOf(prompt);
    const reading = (): Reading => ({ question, passages: passagesIn(prompt) });
    switch (schema) {
      case 'standalone_question':
        return { standalone_question: question };
      case 'sub_questions':
        return { sub_questions: [question] };
      case 'route':
        return { route: 'retrieve', reason: 'the documents state it' };
      case 'answerability': {
        const decision = decide(reading());
        judged(question, decision);
        return judgementObject(question, decision, 'chunk_id');
      }
      case 'answer':
      case 'final_answer': {
        const decision = decide(reading());
        finalAnswer(question, decision);
        return answerObject(question, decision, confidence);
      }
      // controllable's steps, named by their node.
      case 'anonymize':
        return { entities: [] };
      case 'plan':
        return { plan: [question] };
      case 'task_handler':
        return { tool: 'retrieve_chunks', query: question };
      case 'keep_relevant':
        return { relevant_ids: passagesIn(prompt).map((passage) => passage.id) };
      case 'relevance_check':
        return { relevant: true, reason: 'the items are about the query' };
      case 'rewrite_query':
        return { query: question };
      case 'answer_from_context': {
        const decision = decide(reading());
        judged(question, decision);
        const { supporting, sufficiency, missing_information } = judgementObject(question, decision, 'id');
        return { supporting, sufficiency, answer: decision?.answer ?? '', missing_information };
      }
      case 'groundedness_check':
        return { grounded: true, reason: 'the answer quotes the context' };
      case 'replan':
        return { done: true, plan: [] };
      // react's search queries, and the summaries of memory and ingestion.
      case 'search_queries':
        return { queries: [question] };
      case 'history_summary':
      case 'chapter_summary':
        return { summary: squash(prompt).slice(0, 200) };
      default:
        unknownSteps.add(schema);
        return {};
    }
  }

  /** react's text protocol: search once with the question, then answer from what the search returned. */
  function reactTurn(messages: Received['body']['messages']): string {
    const firstUser = messages.find((message) => message.role === 'user');
    const question = questionOf(firstUser ? contentOf(firstUser) : '');
    const observed = messages.filter(
      (message) => message.role === 'tool' || (message.role === 'user' && /^Observation:/m.test(contentOf(message))),
    );
    if (observed.length === 0) {
      return `Thought: I search the documents first.\nAction: knowledge_base\nAction Input: ${JSON.stringify({ query: question })}`;
    }
    const passages = observed.flatMap((message) => passagesIn(contentOf(message)));
    const decision = decide({ question, passages });
    judged(question, decision);
    finalAnswer(question, decision);
    const { supporting, sufficiency } = judgementObject(question, decision, 'chunk_id');
    const answer = answerObject(question, decision, confidence);
    return `Thought: ${decision ? 'The passages state it.' : 'No passage states it.'}\nFinal Answer: ${JSON.stringify({ ...answer, supporting, sufficiency })}`;
  }

  return {
    name,
    unknownSteps,
    respond(body) {
      const format = body.response_format as { json_schema?: { name?: string } } | undefined;
      const schema = format?.json_schema?.name;
      if (!schema) return reactTurn(body.messages);
      const prompt = body.messages.find((message) => message.role === 'user');
      return JSON.stringify(structured(schema, prompt ? contentOf(prompt) : ''));
    },
    proposalFor: (question) => proposals.get(squash(question)),
    proposedAnswer(question) {
      const proposal = proposals.get(squash(question));
      if (!proposal) return false;
      return proposal.final ? proposal.final === 'answered' : proposal.judged === 'sufficient';
    },
    clear: () => proposals.clear(),
  };
}

/**
 * The overconfident model: whatever the question, the first sentence of the best-ranked passage it is shown is the
 * answer (confidence 0.95, quoted exactly); with no passage at all it still answers, uncited.
 */
export function overconfidentModel(): FakeAnswerModel {
  return fakeModel(
    'overconfident',
    ({ passages }) => {
      const first = passages[0];
      if (!first) return { answer: 'Yes.', support: [] };
      const sentence = leadSentence(first.text);
      return { answer: sentence, support: [{ passage: first, sentence }] };
    },
    0.95,
  );
}

const words = (text: string): Set<string> =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 3),
  );

/** The sentence of a passage that shares the most words with the question (its first on a tie). */
function closestSentence(passage: PromptPassage, question: string): string {
  const asked = words(question);
  let best = leadSentence(passage.text);
  let bestScore = -1;
  for (const sentence of sentencesOf(passage.text)) {
    const score = [...words(sentence)].filter((word) => asked.has(word)).length;
    if (score > bestScore && sentence.length <= MAX_QUOTE * 2) [best, bestScore] = [sentence, score];
  }
  return best;
}

const LATIN_OR_DIGIT = /[a-z0-9]/;

/**
 * Whether a sentence states a value (both normalised as the eval's containment normalises them); `whole` asks that a
 * value starting or ending in a Latin letter or a digit is not part of a longer word or number ("12" is not in "2012").
 */
function states(sentence: string, value: string, whole: boolean): boolean {
  const text = normalizeAnswerText(sentence);
  const needle = normalizeAnswerText(value);
  if (!needle) return false;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    if (!whole) return true;
    const before = text[at - 1] ?? ' ';
    const after = text[at + needle.length] ?? ' ';
    const openStart = !LATIN_OR_DIGIT.test(needle[0] ?? '') || !LATIN_OR_DIGIT.test(before);
    const openEnd = !LATIN_OR_DIGIT.test(needle.at(-1) ?? '') || !LATIN_OR_DIGIT.test(after);
    if (openStart && openEnd) return true;
  }
  return false;
}

/** Whether `a` comes before `b` read as a ranking key: greater at the first place they differ. */
function outranks(a: readonly number[], b: readonly number[]): boolean {
  const at = a.findIndex((value, i) => value !== b[i]);
  return at >= 0 && (a[at] ?? 0) > (b[at] ?? 0);
}

/**
 * The sentence that states one of an entry's alternatives, and the alternative it holds, as an honest reader cites it:
 * from a gold document's passage before any other, as a whole word or number before a part of one, and of those the
 * sentence sharing the most words with the question (the first on a tie) — "H=1024" of BERT-LARGE, not of another model.
 */
function findEntry(
  entry: GoldEntry,
  passages: readonly PromptPassage[],
  question: string,
  goldDocs: ReadonlySet<string>,
): { value: string; support: Support } | undefined {
  const alternatives = typeof entry === 'string' ? [entry] : entry;
  const asked = words(question);
  let best: { value: string; support: Support; rank: number[] } | undefined;
  for (const passage of passages) {
    for (const sentence of sentencesOf(passage.text)) {
      for (const whole of [true, false]) {
        const value = alternatives.find((alternative) => states(sentence, alternative, whole));
        if (!value) continue;
        const shared = [...words(sentence)].filter((word) => asked.has(word)).length;
        const rank = [goldDocs.has(passage.docId) ? 1 : 0, whole ? 1 : 0, shared];
        if (!best || outranks(rank, best.rank)) best = { value, support: { passage, sentence }, rank };
        break;
      }
    }
  }
  return best && { value: best.value, support: best.support };
}

/** At most this many hops cited beside the value's own sentence. */
const MAX_BRIDGES = 2;

/** Normalised as the model's proposals are keyed: whitespace runs collapsed. */
export const questionKey = squash;

/**
 * The honest model: it knows each question's gold (keyed by the question as asked). It answers with the gold values
 * when a passage it is shown states each of them (citing the sentence, copied exactly); with only gold documents, with
 * the sentence of a gold document's passage closest to the question; otherwise, and for an unanswerable question, it
 * refuses.
 */
const MAX_SPAN = 40;

/** Gold values one sentence writes together, as it writes them ("11月15日至16日" for 11月15日 and 16日), not as a list. */
function writtenTogether(hits: readonly { value: string; support: Support }[]): string | undefined {
  const sentence = hits[0]?.support.sentence;
  if (hits.length < 2 || !sentence || hits.some((hit) => hit.support.sentence !== sentence)) return undefined;
  const at = hits.map((hit) => sentence.indexOf(hit.value));
  if (at.some((index) => index < 0)) return undefined;
  const start = Math.min(...at);
  const end = Math.max(...hits.map((hit, i) => (at[i] as number) + hit.value.length));
  const span = sentence.slice(start, end);
  return span.length <= MAX_SPAN ? span : undefined;
}

export function honestModel(gold: ReadonlyMap<string, Gold>): FakeAnswerModel {
  const byKey = new Map([...gold].map(([question, value]) => [squash(question), value]));
  const goldOf = (question: string): Gold | undefined => byKey.get(squash(question));
  return fakeModel(
    'honest',
    ({ question, passages }) => {
      const known = goldOf(question);
      if (!known?.answerable) return undefined;
      const docs = new Set(known.docs ?? []);
      // A multi-hop answer cites each hop: the sentence of every other gold passage shown that names what the
      // question asks about and the value's sentence does not ("Signmark is from Finland" beside the markka's).
      const bridges = (support: readonly Support[]): Support[] => {
        const said = new Set(support.flatMap(({ sentence }) => [...words(sentence)]));
        const cited = new Set(support.map(({ passage }) => passage.docId));
        const asked = [...words(question)].filter((word) => !said.has(word));
        const others = passages.filter((passage) => docs.has(passage.docId) && !cited.has(passage.docId));
        // One sentence per document: its first passage shown.
        return others
          .filter((passage, i) => others.findIndex((other) => other.docId === passage.docId) === i)
          .map((passage) => ({ passage, sentence: closestSentence(passage, question) }))
          .filter(({ sentence }) => asked.some((word) => words(sentence).has(word)))
          .slice(0, MAX_BRIDGES);
      };
      if (known.answers?.length) {
        const found = known.answers.map((entry) => findEntry(entry, passages, question, docs));
        if (found.some((item) => item === undefined)) return undefined;
        const hits = found as { value: string; support: Support }[];
        const support = hits
          .map((hit) => hit.support)
          .filter((item, i, all) => all.findIndex((other) => other.sentence === item.sentence) === i);
        return {
          answer: writtenTogether(hits) ?? hits.map((hit) => hit.value).join(', '),
          support: [...support, ...bridges(support)],
        };
      }
      const passage = passages.find((item) => docs.has(item.docId));
      if (!passage) return undefined;
      const sentence = closestSentence(passage, question);
      return { answer: sentence, support: [{ passage, sentence }] };
    },
    0.9,
  );
}
