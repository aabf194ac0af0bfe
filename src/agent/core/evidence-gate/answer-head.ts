import { analyzeQuery } from '../../../text/analyzer.ts';
import { firstSentenceEnd } from '../../../text/first-sentence.ts';
import { escapeRegExp } from '../../../text/text-heuristics.ts';
import type { QuestionView } from './question-view.ts';

/**
 * The part of an answer that gives its value: the text before its first citation marker (or its first sentence),
 * without the labels Evident appends. "800M words, 2,500M words. For the pre-training corpus … [1]" → "800M words,
 * 2,500M words".
 */
const LABEL = /\s*\((?:offline|Offline answer|Answer quoted|SQL from)[^)]*\)\s*/gu;

/** Evident's closing label of an answer (offline, model fallback), kept when the gate narrows the answer. */
export function closingLabel(answer: string): string {
  const found = [...answer.matchAll(LABEL)].at(-1);
  return found && found.index + found[0].length === answer.length ? ` ${found[0].trim()}` : '';
}

export function answerHead(answer: string): string {
  const text = answer.replace(LABEL, ' ').trim();
  const marker = text.search(/\[\d+\]/u);
  const beforeMarker = marker >= 0 ? text.slice(0, marker) : text;
  const end = firstSentenceEnd(beforeMarker);
  return (end < 0 ? beforeMarker : beforeMarker.slice(0, end + 1)).trim();
}

/** Segments of a head that reads as a list ("a, b; c"): a candidate list has several, a sentence one. */
export function listedValues(head: string): string[] {
  const parts = head
    .replace(/[.。]$/u, '')
    .split(/(?<!\d),|,(?!\d)|[;；、，]|\s+or\s+/u)
    .map((part) => part.trim())
    .filter(Boolean);
  const short = parts.every((part) => part.split(/\s+/u).length <= 4);
  return parts.length > 1 && short ? parts : [head];
}

/** Short answers naming someone or something are their value ("王楚钦"), though the language module tags names only in a sentence. */
export const SHORT_HEAD = 20;

/**
 * "Which activation function …?" answered "gelu" from "We use a gelu activation …": a short answer written straight
 * before a word of the asked noun is named as one of the kind asked, though the sentence does not spell the whole noun.
 */
export function writtenAsNoun(view: QuestionView, head: string, sentence: string): boolean {
  const value = head.replace(/[.。!！]+$/u, '').trim();
  if (!value || value.length > SHORT_HEAD || view.noun.length < 2) return false;
  const after = new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(value)}\\s+([\\p{L}-]+)`, 'giu');
  return [...sentence.matchAll(after)].some((match) =>
    analyzeQuery(match[1] ?? '').some((term) => view.noun.includes(term)),
  );
}
