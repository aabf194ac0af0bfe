import { identifiersIn, sentences } from '../../text/text-heuristics.ts';

/** Quotes kept per chunk, and the score a sentence needs to be one. */
const MAX_PER_CHUNK = 3;
const MIN_SCORE = 2;
const MIN_CHARS = 25;
const MAX_CHARS = 400;

const QUOTATION = /["“«„]([^"”»]{12,})["”»]/u;
const FIGURE = /[$€£¥]\s?\d|\b\d[\d,.]*\s?(%|percent|usd|eur|days?|months?|years?|hours?)\b|\b(1[5-9]|20)\d{2}\b/i;
/** Two or more capitalised words in a row, linked by small words: names of people, places, organisations, works. */
const PROPER_NAME = /\b[A-Z][\p{L}'’.-]+(?:\s+(?:of|the|de|von|van|and|&)?\s*[A-Z][\p{L}'’.-]+)+/u;
const OBLIGATION = /\b(must|shall|may not|is required|are required|never|always|is capped|is defined as|means)\b/i;

/**
 * How notable a sentence is worth quoting: a quotation in it, a figure (amount, percentage, duration, year), an
 * identifier, a proper name, an obligation. Deterministic, so the quotes index is the same on every ingest.
 */
export function notability(sentence: string): number {
  let score = 0;
  if (QUOTATION.test(sentence)) score += 3;
  if (FIGURE.test(sentence)) score += 1.5;
  if (identifiersIn(sentence).length > 0) score += 2;
  if (PROPER_NAME.test(sentence.slice(1))) score += 1;
  if (OBLIGATION.test(sentence)) score += 1;
  return score;
}

/** The notable sentences of a chunk, verbatim (whitespace collapsed), best first, at most a few. */
export function notableQuotes(chunkText: string): string[] {
  return sentences(chunkText)
    .map(({ text }) => text)
    .filter((text) => text.length >= MIN_CHARS && text.length <= MAX_CHARS)
    .map((text, index) => ({ text, index, score: notability(text) }))
    .filter((item) => item.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, MAX_PER_CHUNK)
    .map((item) => item.text);
}
