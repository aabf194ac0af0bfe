/**
 * Hops as questions: the wording a reader answers on its own, and earlier hops' answers filled in (the hops are made
 * by decompose-offline-hops.ts).
 */

/** The hop with earlier answers filled in: `#n` → `answers[n-1]` (a missing answer leaves the reference). */
export function substituteAnswers(hop: string, answers: readonly (string | undefined)[]): string {
  return hop.replace(/#(\d+)/g, (reference, n: string) => answers[Number(n) - 1] ?? reference);
}

const PHRASE_RELATIVE =
  /^(.+?)\s+(?:(in|at|on|of|from|by|for|with|to|under|into)\s+)?(which|that|who|whom|whose|where|when)\s+(.+)$/iu;

/**
 * A hop as a question a reader can answer on its own: "association which published X" → "Which association published
 * X?", "city where Y was born" → "Which city is where Y was born?", "composer of X" → "What is the composer of X?".
 * A hop that already is a question (the last one) stays as it is.
 */
export function hopQuestion(hop: string): string {
  const body = hop.trim().replace(/[?.!]+$/, '');
  if (
    /^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|in|on|at)\b/i.test(body) ||
    /\?$/.test(hop.trim())
  )
    return `${body}?`;
  const phrase = body.replace(/^the\s+/i, '');
  const relative = PHRASE_RELATIVE.exec(phrase);
  if (relative) {
    const [, noun = '', preposition, pronoun = '', clause = ''] = relative;
    const lowered = pronoun.toLowerCase();
    if (preposition)
      return `${preposition.charAt(0).toUpperCase()}${preposition.slice(1).toLowerCase()} which ${noun} ${clause}?`;
    if (lowered === 'who' || lowered === 'whom') return `Who ${clause}?`;
    if (lowered === 'where' || lowered === 'when') return `Which ${noun} is ${lowered} ${clause}?`;
    return `Which ${noun} ${clause}?`;
  }
  return `What is the ${phrase}?`;
}

/** `#n` of a hop renumbered past `base` earlier tasks. */
export const offsetReferences = (hop: string, base: number): string =>
  hop.replace(/#(\d+)/g, (_match, n: string) => `#${Number(n) + base}`);

/** Whether a hop refers to an earlier hop's answer. */
export const refersBack = (hop: string): boolean => /#\d+/.test(hop);
