import { stemmer } from 'stemmer';

/** Words that carry no information need of their own (question words, auxiliaries, articles). */
const STOPWORDS = new Set(
  (
    'a an the of in on at to for by per with from and or but is are was were be been being do does did what which who whom ' +
    'whose when where why how much many can could should would will shall may might must tell me please give show list ' +
    'describe explain about it its this that these those there their they them our we you your i my any all some also and so ' +
    'as if than then into under over up out does has have had s'
  ).split(' '),
);

/** Identifiers such as CT-2024-0193, HIP-3, INV-88412: matched exactly, never stemmed. */
export const IDENTIFIER = /\b[A-Za-z]{2,}(?:-[A-Za-z0-9]+)*-\d+[A-Za-z0-9]*\b/g;

export const identifiersIn = (text: string): string[] => [...new Set((text.match(IDENTIFIER) ?? []).map((id) => id.toUpperCase()))];

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * Content terms of a text: lowercased, stopwords removed, Porter-stemmed; identifiers kept whole; CJK runs (no
 * spaces between words) as overlapping character bigrams, as the keyword analyzer indexes them.
 */
export function contentTerms(text: string): string[] {
  const identifiers = identifiersIn(text).map((id) => id.toLowerCase());
  const rest = text.replace(IDENTIFIER, ' ').toLowerCase();
  const bigrams = (rest.match(CJK_RUN) ?? []).flatMap((run) =>
    run.length === 1 ? [run] : Array.from({ length: run.length - 1 }, (_, i) => run.slice(i, i + 2)),
  );
  const words = (rest.replace(CJK_RUN, ' ').match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOPWORDS.has(word) && word.length > 1);
  return [...new Set([...identifiers, ...words.map((word) => stemmer(word)), ...bigrams])];
}

/** Share of a text's content terms that are CJK bigrams (they match far less often than whole words). */
export function cjkShare(terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  return terms.filter((term) => /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u.test(term)).length / terms.length;
}

/** The stemmed term set of a passage, for coverage tests. */
export const termSet = (text: string): Set<string> => new Set(contentTerms(text));

/** Sentences of a passage, each with the markdown heading it sits under (headings and list items split too). */
export function sentences(text: string): { text: string; heading: string }[] {
  const out: { text: string; heading: string }[] = [];
  let heading = '';
  for (const block of text.split(/\n{2,}|\n(?=[#*-]\s)|\n(?=#)/u)) {
    const trimmed = block.trim();
    // Chunk text keeps headings as short lines of their own, without the markdown `#`.
    if (!trimmed.includes('\n') && trimmed.length <= 80 && !/[.!?:;。！？]$/u.test(trimmed)) {
      heading = trimmed.replace(/^#+\s*/, '');
      continue;
    }
    const headingMatch = /^#{1,6}\s+(.+)$/m.exec(trimmed);
    if (headingMatch && trimmed.startsWith('#')) {
      heading = headingMatch[1] as string;
      const rest = trimmed.slice(trimmed.indexOf('\n') + 1);
      if (!trimmed.includes('\n')) continue;
      pushSentences(rest, heading, out);
      continue;
    }
    pushSentences(trimmed, heading, out);
  }
  return out;
}

function pushSentences(block: string, heading: string, out: { text: string; heading: string }[]): void {
  // Chinese and Japanese put no space after a full stop, so their stops end a sentence on their own.
  for (const sentence of block.split(/(?<=[.!?])\s+|(?<=[。！？])/u)) {
    const clean = sentence.replace(/\s+/g, ' ').trim();
    if (clean.length >= 12) out.push({ text: clean, heading });
  }
}

/** What kind of value answers the question, when the question says so. */
export type AnswerKind = 'amount' | 'date' | 'duration' | 'number' | 'any';

export function answerKind(question: string): AnswerKind {
  const q = question.toLowerCase();
  if (/\b(how much|price|prices|pricing|cost|costs|fee|fees|amount|pay|paid|charge|charged|budget)\b/.test(q)) return 'amount';
  if (/\b(when|what date|which date|deadline|start date|end date)\b/.test(q)) return 'date';
  if (/\b(how long|duration|notice period|term|timeline|how many (days|months|years|weeks|hours))\b/.test(q)) return 'duration';
  // A cap or limit may be money ("liability cap") or not ("rate limit: 600 requests per minute"): any figure.
  if (/\b(how many|number of|percentage|percent|rate|cap|capped|limit|limits)\b/.test(q)) return 'number';
  return 'any';
}

const AMOUNT = /([$€£¥]\s?\d[\d,.]*\s?[kKmM]?\b|\b\d[\d,.]*\s?(usd|eur|gbp|dollars|euros|元|万元)|\d[\d,.]*\s?%)/i;
const DATE = /\b(\d{1,2}\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{4}|\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{4})\b/i;
const DURATION = /\b\d+\s*(-\s*)?(day|days|week|weeks|month|months|year|years|hour|hours|minutes)\b|\b(one|two|three|four|five|six|twelve)\s+(days|weeks|months|years)\b/i;
const NUMBER = /\d/;

/** Whether a sentence contains a value of the kind the question asks for. */
export function hasValueOfKind(sentence: string, kind: AnswerKind): boolean {
  switch (kind) {
    case 'amount':
      return AMOUNT.test(sentence);
    case 'date':
      return DATE.test(sentence);
    case 'duration':
      return DURATION.test(sentence) || DATE.test(sentence);
    case 'number':
      return NUMBER.test(sentence);
    case 'any':
      return true;
  }
}
