/** A heading recognised in plain text: `3.1 Pre-training BERT` (level 2) or `TERMINATION` (level 1). */
export interface HeadingLine {
  level: number;
  text: string;
}

const NUMBERED = /^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+(\p{Lu}.*)$/u;

/**
 * Recognises a standalone line as a heading, modestly: a short numbered line whose text starts with a
 * capital and does not end like a sentence, or a short ALL-CAPS line. Anything else is body text.
 */
export function detectHeadingLine(line: string): HeadingLine | undefined {
  const text = line.trim().replace(/\s+/g, ' ');
  if (text.length < 3 || text.length > 80 || /[.,;:!?]$/.test(text)) return undefined;
  const numbered = NUMBERED.exec(text);
  if (numbered?.[1] && numbered[2] && /\p{L}{2}/u.test(numbered[2]) && !/^\d+(\.\d+)?\s+\d/.test(text)) {
    return { level: numbered[1].split('.').length, text };
  }
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (
    letters.length >= 3 &&
    letters === letters.toUpperCase() &&
    letters !== letters.toLowerCase() &&
    text.split(' ').length <= 10
  ) {
    return { level: 1, text };
  }
  return undefined;
}
