/**
 * Stops that end no sentence: abbreviations ("et al.", "e.g.", "Fig."), titles and place words written before a
 * name ("St. Louis", "Mt. Hood", "Dr. Ruiz") and a name's initial ("James K. Polk").
 */
const ABBREVIATION =
  /(?:^|[\s(])(?:al|e\.g|i\.e|etc|vs|cf|no|fig|figs|eq|sec|approx|St|Mt|Ft|Dr|Mr|Mrs|Ms|Jr|Sr|[A-Z])$/;

/**
 * The index of the stop that ends the text's first sentence (`.`, `!`, `?` before a space or the end; `。！？`
 * anywhere), or -1 when it has none.
 */
export function firstSentenceEnd(text: string): number {
  for (const match of text.matchAll(/[.!?。！？]/g)) {
    const at = match.index;
    if (/[。！？]/.test(match[0])) return at;
    if (at === 0 || !/^(?:\s|$)/.test(text.slice(at + 1, at + 2))) continue;
    if (match[0] === '.' && ABBREVIATION.test(text.slice(0, at))) continue;
    return at;
  }
  return -1;
}
