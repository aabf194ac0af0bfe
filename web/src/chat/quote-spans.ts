/** A piece of one text item that a quote covers: `[start, end)` in that item's string. */
export interface QuoteSpan {
  item: number;
  start: number;
  end: number;
}

const UNIFIED: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
};
const unify = (char: string): string => UNIFIED[char] ?? char;
export const squeeze = (text: string): string =>
  [...text]
    .filter((char) => !/\s/.test(char))
    .map(unify)
    .join('');

/**
 * Where a quote lies across a page's text items (pdf.js text layer strings, in reading order), as the pieces of
 * each item it covers. Items split lines and sometimes words anywhere, and extracted text joins them with spaces
 * or newlines, so matching ignores whitespace altogether (and typographic quotes and dashes, as the citation check
 * does). Empty when the quote is not on the page.
 */
export function quoteSpans(items: readonly string[], quote: string): QuoteSpan[] {
  const needle = squeeze(quote.normalize('NFKC'));
  if (!needle) return [];
  let haystack = '';
  const origin: { item: number; offset: number }[] = [];
  items.forEach((text, item) => {
    for (let offset = 0; offset < text.length; offset += 1) {
      const char = text[offset] ?? '';
      if (/\s/.test(char)) continue;
      // NFKC may widen a ligature (ﬁ → fi): every char it yields points back at the one it came from.
      for (const part of unify(char).normalize('NFKC')) {
        haystack += part;
        origin.push({ item, offset });
      }
    }
  });
  const at = haystack.indexOf(needle);
  if (at === -1) return [];
  const spans: QuoteSpan[] = [];
  for (let i = at; i < at + needle.length; i += 1) {
    const { item, offset } = origin[i] as { item: number; offset: number };
    const last = spans.at(-1);
    if (last && last.item === item) last.end = offset + 1;
    else spans.push({ item, start: offset, end: offset + 1 });
  }
  return spans;
}
