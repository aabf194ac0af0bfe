const LEAD = /^(.*?\b(?:is|are|was|were|about|describe|summari[sz]e|explain|list|give me|tell me)\s+(?:the\s+)?)/i;
const TAIL = /\s+((?:of|for|in|under|from)\s+.+)$/i;
/** A list's comma: not one inside a number ("$3,000"). */
const LIST_COMMA = /(?<!\d),|,(?!\d)/;
/** Singular nouns that end in "s" (status, analysis, terms of "business"…) and plurals that do not. */
const SINGULAR_S = /(?:ss|us|is|news|series|species)$/i;
const PLURAL_IRREGULAR = new Set(['people', 'children', 'data', 'criteria', 'men', 'women', 'feet', 'teeth']);

/** Whether a noun phrase is plural, judged by its head noun (its last word). */
export function isPluralNoun(phrase: string): boolean {
  const head = (phrase.trim().split(/\s+/).at(-1) ?? '').toLowerCase();
  if (PLURAL_IRREGULAR.has(head)) return true;
  return head.length > 2 && head.endsWith('s') && !SINGULAR_S.test(head);
}

/** The lead's copula made to agree with the item: "What are the" + "pricing" → "What is the". */
function agree(lead: string, item: string): string {
  const plural = isPluralNoun(item);
  return lead.replace(/\b(is|are|was|were)(\s+(?:the\s+)?)$/i, (_match, verb: string, rest: string) => {
    const past = /^w/i.test(verb);
    const word = past ? (plural ? 'were' : 'was') : plural ? 'are' : 'is';
    return `${/^[A-Z]/.test(verb) ? word.charAt(0).toUpperCase() + word.slice(1) : word}${rest}`;
  });
}

/**
 * Offline: a question listing several needs ("the pricing, risks and delivery timeline of X") becomes one question
 * per need, each keeping the shared lead ("What is the", its verb agreeing with the need) and subject ("of X").
 * A list needs a comma (not one inside a number: "a trip that will cost $3,000"), so "termination for convenience and
 * breach" stays one need.
 */
export function decomposeOffline(question: string): string[] {
  const body = question.trim().replace(/[?.!]+$/, '');
  if (!LIST_COMMA.test(body)) return [question.trim()];
  const lead = LEAD.exec(body)?.[1] ?? '';
  const tailMatch = TAIL.exec(body.slice(lead.length).split(LIST_COMMA).at(-1) ?? '');
  const tail = tailMatch?.[1] ?? '';
  const list = body.slice(lead.length, tail ? body.length - tail.length - 1 : body.length);
  const items = list
    .split(/\s*(?:(?<!\d),|,(?!\d))\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/i)
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length < 2) return [question.trim()];
  return items.map((item) => `${agree(lead, item)}${item}${tail ? ` ${tail}` : ''}?`.replace(/\s+/g, ' ').trim());
}
