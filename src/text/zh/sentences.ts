/**
 * Chinese sentence splitting: 。！？；!? and line breaks end a sentence, a closing quote or bracket right after the
 * stop stays with it, and a stop inside quotes or brackets (“……！”他说) does not split, unless the quote never
 * closes on that line (then the stops split as if it were not there, so one stray “ cannot swallow a passage).
 * Runs of two or more spaces count as line breaks: scraped news text keeps its lines that way.
 */

const STOPS = new Set(['。', '！', '？', '；', '!', '?', ';', '…']);
const OPENERS: Record<string, string> = {
  '“': '”',
  '‘': '’',
  '「': '」',
  '『': '』',
  '（': '）',
  '(': ')',
  '《': '》',
  '【': '】',
  '〈': '〉',
};
const CLOSERS = new Set(Object.values(OPENERS));
/** Half-width ASCII quotes open and close with the same character. */
const SYMMETRIC = new Set(['"']);
/** Latin text in a passage: a full stop followed by a space ends a sentence (a decimal point never has one). */
const LATIN_STOP = /\.(?=\s)/u;

function splitLine(line: string, respectBrackets: boolean): { parts: string[]; balanced: boolean } {
  const parts: string[] = [];
  const stack: string[] = [];
  let current = '';
  const chars = Array.from(line);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    current += ch;
    if (SYMMETRIC.has(ch)) {
      if (stack[stack.length - 1] === ch) stack.pop();
      else stack.push(ch);
    } else if (OPENERS[ch]) stack.push(OPENERS[ch] as string);
    else if (CLOSERS.has(ch) && stack[stack.length - 1] === ch) stack.pop();
    const stops =
      STOPS.has(ch) ||
      (ch === '.' && LATIN_STOP.test(chars.slice(i, i + 2).join('')) && /[A-Za-z)]/u.test(chars[i - 1] ?? ''));
    if (!stops || (respectBrackets && stack.length > 0)) continue;
    // A stop run (？！, ……) and the closing marks right after it belong to this sentence.
    while (
      i + 1 < chars.length &&
      (STOPS.has(chars[i + 1] as string) || CLOSERS.has(chars[i + 1] as string) || chars[i + 1] === '"')
    ) {
      i++;
      const next = chars[i] as string;
      current += next;
      if (stack[stack.length - 1] === next) stack.pop();
    }
    parts.push(current);
    current = '';
  }
  if (current) parts.push(current);
  return { parts, balanced: stack.length === 0 };
}

/** The sentences of a Chinese (or mixed) passage, in order, trimmed, empty ones dropped. */
export function zhSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n|\r|[ \t\u3000\u00a0]{2,}/u)) {
    if (!line.trim()) continue;
    let { parts, balanced } = splitLine(line, true);
    if (!balanced) parts = splitLine(line, false).parts;
    for (const part of parts) {
      const clean = part.replace(/\s+/gu, ' ').trim();
      if (/[\p{L}\p{N}]/u.test(clean)) out.push(clean);
    }
  }
  return out;
}
