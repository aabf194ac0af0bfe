import { analyzeQuery } from '../../../text/analyzer.ts';
import { defeatedSide } from './match-result.ts';
import { yearOfEventName } from './event-name-year.ts';
import type { AnswerSpan, AnswerType } from '../../../text/language.ts';
import { headedSentences } from '../../../text/sentences.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { QuestionView } from './question-view.ts';
import { asksFrequency } from './measured-type.ts';

/**
 * How the gate reads the cited evidence: sentences (a table row is one), symbols a passage defines read as what they
 * denote, and where in a sentence each of the question's words and entities stands, so a value can be tied to the
 * words nearest to it rather than to anything the passage says.
 */

export interface CitedSentence {
  chunk: Evidence;
  text: string;
  heading: string;
  /** The sentence before it in the chunk: what a passage goes on about ("The treasury team holds … Positions: AAPL 1,200"). */
  before: string;
}

/** A Han character, or a run of other letters and digits (with inner hyphens, dots, commas, apostrophes). */
const WORD = /\p{Script=Han}|(?:(?!\p{Script=Han})[\p{L}\p{N}])+(?:[-_.,'’](?:(?!\p{Script=Han})[\p{L}\p{N}])+)*/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Share of a Chinese name's characters a shortened or expanded mention keeps. */
const CJK_NAME_SHARE = 0.67;

/** Squashed form for comparing names however they are hyphenated or spaced ("BERT-BASE", "BERT BASE", "BERTBASE"). */
export const squash = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

interface Token {
  start: number;
  end: number;
  key: string;
  terms: string[];
  /** Which clause of the sentence the word is in (commas, semicolons, brackets and bars separate clauses). */
  clause: number;
}

const termsCache = new Map<string, string[]>();
function termsOfWord(word: string): string[] {
  let terms = termsCache.get(word);
  if (!terms) {
    terms = analyzeQuery(word);
    if (termsCache.size > 20_000) termsCache.clear();
    termsCache.set(word, terms);
  }
  return terms;
}

const CLAUSE_BREAK = /[,;()|，；（）、]/gu;

export function tokens(text: string): Token[] {
  let clause = 0;
  let last = 0;
  return [...text.matchAll(WORD)].map((match) => {
    clause += (text.slice(last, match.index).match(CLAUSE_BREAK) ?? []).length;
    last = match.index + match[0].length;
    // A Han character is a token of its own; its terms are those of the pair it starts (the analyzer's bigrams).
    const word = CJK.test(match[0]) ? text.slice(match.index, match.index + 2) : match[0];
    const terms = CJK.test(match[0]) ? [match[0], ...termsOfWord(word)] : termsOfWord(word);
    return { start: match.index, end: last, key: squash(match[0]), terms, clause };
  });
}

/** Token indexes where `entity` is written: one token, or up to four consecutive ones that join into it. */
export function entityPositions(entity: string, words: readonly Token[], text: string): number[] {
  // "EV's" names the EV.
  const key = squash(entity.replace(/['’]s$/u, ''));
  if (!key) return [];
  if (CJK.test(entity)) {
    const at = text.normalize('NFKC').toLowerCase().indexOf(entity.normalize('NFKC').toLowerCase());
    if (at >= 0)
      return [
        Math.max(
          0,
          words.findIndex((word) => word.end > at),
        ),
      ];
    // A Chinese name is often shortened (二十大 for 第二十次全国代表大会): most of its characters, in order, will do.
    const chars = [...entity].filter((char) => CJK.test(char));
    let from = 0;
    let found = 0;
    let first = -1;
    for (const char of chars) {
      const index = text.indexOf(char, from);
      if (index < 0) continue;
      if (first < 0) first = index;
      found++;
      from = index + 1;
    }
    return chars.length >= 2 && found / chars.length >= CJK_NAME_SHARE && from - first <= 4 * chars.length
      ? [
          Math.max(
            0,
            words.findIndex((word) => word.end > first),
          ),
        ]
      : [];
  }
  const found: number[] = [];
  words.forEach((word, index) => {
    let joined = '';
    for (let span = 0; span < 4 && index + span < words.length; span++) {
      joined += (words[index + span] as Token).key;
      // "German" is named by "Germany", "Australian" by "Australia" (a demonym adds a letter or two), "North
      // America" by "North American".
      const stem =
        span === 0
          ? (word.key.startsWith(key) && key.length >= 3) || demonymOf(word.key, key)
          : demonymOf(key, joined) || demonymOf(joined, key);
      if (joined === key || stem) {
        found.push(index);
        return;
      }
      if (!key.startsWith(joined)) return;
    }
  });
  if (found.length === 0 && ACRONYM.test(entity)) found.push(...expansionsOf(entity.replace(/\./gu, ''), words, text));
  return found;
}

/** An acronym of two to five capitals ("US", "NFL"): a run of capitalised words whose initials spell it names it. */
const ACRONYM = /^(?:\p{Lu}\.?){2,5}$/u;
const ACRONYM_LINKS = new Set(['of', 'the', 'and', 'for', '&']);

/** Token indexes where the words of an acronym are written out ("United States" for US, "of" and "the" skipped). */
function expansionsOf(acronym: string, words: readonly Token[], text: string): number[] {
  const found: number[] = [];
  for (let start = 0; start < words.length; start++) {
    let letter = 0;
    for (let at = start; at < words.length && letter < acronym.length; at++) {
      const raw = text.slice((words[at] as Token).start, (words[at] as Token).end);
      if (at > start && ACRONYM_LINKS.has(raw.toLowerCase())) continue;
      if (raw[0] !== acronym[letter] || !/^\p{Lu}\p{Ll}/u.test(raw)) break;
      letter++;
    }
    if (letter === acronym.length) found.push(start);
  }
  return found;
}

const demonymOf = (word: string, key: string): boolean =>
  word.length >= 5 && key.length - word.length <= 2 && key.length > word.length && key.startsWith(word);

/** Whether a text (a chunk with its title and heading) names the entity. */
export function names(text: string, entity: string): boolean {
  return entityPositions(entity, tokens(text), text).length > 0;
}

const DEFINITION = /\b(?:denote|denotes|refer to|write)\s+(.+?)(?:[.;]|$)/giu;
const DEFINED = /^(?:and\s+)?(.+?)\s+as\s+([A-Za-z][A-Za-z0-9_]{0,3})\b/u;

/**
 * Symbols a passage defines ("we denote the number of layers as L, the hidden size as H") written out where they are
 * used ("L=12" → "the number of layers L=12"), so a value given by its symbol is stated beside what it measures.
 */
export function expandSymbols(text: string): string {
  const symbols = new Map<string, string>();
  // "i.e." and "e.g." end no definition.
  for (const match of text.replace(/\b(?:i\.e|e\.g)\.?,?\s*/giu, '').matchAll(DEFINITION)) {
    for (const part of (match[1] as string).split(/,\s*|\s+and\s+/u)) {
      const defined = DEFINED.exec(part.trim());
      if (defined?.[1] && defined[2] && !symbols.has(defined[2]))
        symbols.set(defined[2], defined[1].replace(/[()]/gu, ' ').replace(/\s+/gu, ' ').trim());
    }
  }
  let out = text;
  for (const [symbol, meaning] of symbols) {
    const used = new RegExp(`(?<![\\p{L}\\p{N}#])(#?)${symbol}(?=\\s*[=:])`, 'gu');
    out = out.replace(used, (_whole, hash: string) => `${meaning} ${hash}${symbol}`);
  }
  return out;
}

/** The sentences of the cited chunks (each chunk once), with symbols written out; a table row is one sentence. */
export function citedSentences(chunks: readonly Evidence[], view: QuestionView): CitedSentence[] {
  const out: CitedSentence[] = [];
  for (const chunk of chunks) {
    const text = expandSymbols(chunk.text);
    let before = '';
    const push = (part: string, heading: string) => {
      out.push({ chunk, text: part, heading: heading || chunk.heading, before });
      before = part;
    };
    // A table row ("order_id: A-1007 | customer: Hooli") is a sentence of its own: a row's values are not its neighbours'.
    const rows = text.split('\n').filter((line) => TABLE_ROW.test(line));
    for (const row of rows) push(row.trim(), '');
    const prose = rows.length
      ? text
          .split('\n')
          .filter((line) => !TABLE_ROW.test(line))
          .join('\n')
      : text;
    for (const { text: sentence, heading } of headedSentences(prose))
      for (const part of view.module.code === 'en' ? [sentence] : view.module.sentences(sentence)) push(part, heading);
    if (out.every((sentence) => sentence.chunk !== chunk)) push(text, chunk.heading);
  }
  return out;
}

/** Whether a sentence is a table row: every value in it belongs to the row's key. */
export const isTableRow = (text: string): boolean => TABLE_ROW.test(text);

/** A line of `header: value | header: value` cells, as table rows are stored. */
const TABLE_ROW = /^[^|\n]{1,80}: [^|\n]*(?: \| [^|\n]{1,80}: [^|\n]*)+$/u;

/** A Chinese name that holds a word of the question ("卫冕冠军" for "…冠军是谁") restates what is asked. */
export function restates(view: QuestionView, text: string, type: AnswerType): boolean {
  const name = type === 'person' || type === 'organization' || type === 'place';
  const key = squash(text);
  return name && view.module.code !== 'en' && view.attribute.some((term) => term.length >= 2 && key.includes(term));
}

/** Text as whole words between spaces: "capped at 4%" holds " 4 ", "CT-2024-0193" does not. */
const spaced = (text: string): string =>
  ` ${text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

/**
 * Spans of `type` in a sentence that the question does not itself state (a value it repeats answers nothing), read
 * whole: the "4" of "capped at 4%" is not the question's own when it names CT-2024-0193.
 */
export function freshValues(view: QuestionView, text: string, type: AnswerType): AnswerSpan[] {
  const english = view.module.code === 'en';
  const asked = english ? spaced(view.question) : squash(view.question);
  const references = [...text.matchAll(REFERENCE)].map((match) => [match.index, match.index + match[0].length]);
  return view.module.spans(text, type).filter((span) => {
    const key = english ? spaced(span.text) : squash(span.text);
    if (key.trim().length === 0 || asked.includes(key)) return false;
    if (restates(view, span.text, type)) return false;
    // A year in a reference ("(Vaswani et al., 2017)") dates a paper, and a year counts nothing.
    if (references.some(([start = 0, end = 0]) => span.start >= start && span.end <= end)) return false;
    // "How often …?" asks a frequency ("every 90 days"), which a length of time ("within 30 seconds") is not.
    if (type === 'duration' && asksFrequency(view) && !FREQUENCY.test(span.text)) return false;
    if (saysOtherwise(view, text, span, type)) return false;
    // A bare year counts nothing and lasts no time.
    return !((view.counted.length > 0 || type === 'duration') && YEAR.test(span.text.trim()));
  });
}

/**
 * A span its sentence says is not the value asked, whatever its kind: the side a result says lost is no winner
 * ("阿根廷队战胜了法国队，夺得了冠军"), and the year that opens the asked event's name ("2022年…乌镇峰会") is not when it
 * was held. Applied to the values an answer writes as well as to those the language module finds.
 */
export const saysOtherwise = (view: QuestionView, text: string, span: AnswerSpan, type: AnswerType): boolean =>
  defeatedSide(view, text, span) || (type === 'date' && yearOfEventName(view, text, span));

const FREQUENCY = /^(?:every|each|once|twice)\b|\btimes\b|ly$/iu;

/** A bracketed literature reference: "(Zhu et al., 2015)", "(Devlin and Chang, 2018; Wu, 2016)". */
const REFERENCE = /[([][^()[\]]*(?:et al\.,?|\p{Lu}\p{Ll}+,)\s*\d{4}[a-z]?[^()[\]]*[)\]]/gu;
const YEAR = /^(?:1[5-9]|20)\d{2}$/u;
