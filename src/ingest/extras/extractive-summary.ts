import { contentTerms, sentences } from '../../text/text-heuristics.ts';

/** Sentences a summary keeps, and the characters it may take. */
const MAX_SENTENCES = 3;
const MAX_CHARS = 600;

/**
 * Offline chapter summary: the chapter's most central sentences (those whose terms recur most across the chapter,
 * length-normalised, the opening sentence favoured as it usually states the topic), in reading order. Verbatim
 * sentences, so nothing is said that the chapter does not say.
 */
export function extractiveSummary(text: string): string {
  const found = sentences(text).map((sentence) => sentence.text);
  if (found.length <= 1) return (found[0] ?? text.replace(/\s+/g, ' ').trim()).slice(0, MAX_CHARS);
  const termsOf = found.map((sentence) => contentTerms(sentence));
  const frequency = new Map<string, number>();
  for (const terms of termsOf) for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const scored = found.map((sentence, index) => {
    const terms = termsOf[index] ?? [];
    const weight =
      terms.reduce((sum, term) => sum + (frequency.get(term) ?? 0), 0) / Math.sqrt(Math.max(terms.length, 1));
    return { sentence, index, score: weight * (index === 0 ? 1.5 : 1) };
  });
  const kept: typeof scored = [];
  let chars = 0;
  for (const candidate of [...scored].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (kept.length >= MAX_SENTENCES) break;
    if (kept.length > 0 && chars + candidate.sentence.length > MAX_CHARS) continue;
    kept.push(candidate);
    chars += candidate.sentence.length + 1;
  }
  return kept
    .sort((a, b) => a.index - b.index)
    .map((item) => item.sentence)
    .join(' ');
}
