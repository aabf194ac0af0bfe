const UNIFIED: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
};

/** The text with whitespace runs collapsed and typographic quotes/dashes unified, and where each kept char came from. */
function normalize(text: string): { text: string; origin: number[] } {
  let out = '';
  const origin: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] ?? '';
    if (/\s/.test(char)) {
      if (out.length > 0 && !out.endsWith(' ')) {
        out += ' ';
        origin.push(i);
      }
      continue;
    }
    out += UNIFIED[char] ?? char;
    origin.push(i);
  }
  if (out.endsWith(' ')) {
    out = out.slice(0, -1);
    origin.pop();
  }
  return { text: out, origin };
}

/**
 * Where a citation's quote occurs in its chunk, as `[start, end)` offsets into the chunk text. Matching ignores
 * whitespace differences and typographic quotes, as the server's citation check does; undefined if it is not there.
 */
export function findQuote(text: string, quote: string): [number, number] | undefined {
  const haystack = normalize(text);
  const needle = normalize(quote).text;
  if (!needle) return undefined;
  const at = haystack.text.indexOf(needle);
  if (at === -1) return undefined;
  const start = haystack.origin[at];
  const last = haystack.origin[at + needle.length - 1];
  if (start === undefined || last === undefined) return undefined;
  return [start, last + 1];
}
