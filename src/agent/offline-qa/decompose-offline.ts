/** The shared lead of a list question: "What are the", "Tell me about the", "Describe the" (never a clause: "If …, "). */
const LEAD =
  /^((?:(?:what|which)\b[^,]*?\b(?:is|are|was|were|about)|(?:please\s+)?(?:describe|summari[sz]e|explain|list|give me|tell me(?:\s+about)?))\s+(?:the\s+)?)/i;
/** ", and how long does it last": a second question joined to the first. */
const JOINED = /,?\s+and\s+(?=(?:what|when|where|who|whom|which|how|why)\b)/i;
/** "When did <the initial term of X> start", "What is <the fee of X>": the first question's subject. */
const SUBJECT =
  /^\s*(?:what|when|where|who|which|why|how(?:\s+(?:long|much|many|often|soon))?)\s+(is|are|was|were|did|does|do|has|have|had)\s+(.+?)\s*$/i;
/** "order A-1003", "CT-2023-0077": a named record the first question is about. */
const RECORD = /\b(?:[a-z]+\s+)?[A-Z][\w]*-\d[\w-]*/u;
const TAIL = /\s+((?:of|for|in|under|from)\s+.+)$/i;
/** A list's comma: not one inside a number ("$3,000"). */
const LIST_COMMA = /(?<!\d),|,(?!\d)/;
/** Singular nouns that end in "s" (status, analysis, terms of "business"…) and plurals that do not. */
const SINGULAR_S = /(?:ss|us|is|news|series|species)$/i;
const PLURAL_IRREGULAR = new Set(['people', 'children', 'data', 'criteria', 'men', 'women', 'feet', 'teeth']);

/** Where a noun phrase's modifiers start: "the amount | above which …", "the fee | of X". */
const MODIFIER = /\s+(?:of|in|for|on|at|to|with|by|from|per|above|below|over|under|which|that|who|where|when)\b.*$/i;

/** Whether a noun phrase is plural, judged by its head noun (its last word before its modifiers). */
export function isPluralNoun(phrase: string): boolean {
  const head = (phrase.trim().replace(MODIFIER, '').split(/\s+/).at(-1) ?? '').toLowerCase();
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

/** What "it"/"its" in a question joined to this one refers to: its subject, or the record it names. */
function antecedent(first: string): string | undefined {
  const subject = SUBJECT.exec(first);
  if (subject?.[1] && subject[2]) {
    const words = subject[2].split(/\s+/);
    // "did the initial term of X start": the subject is all but the main verb.
    const phrase = /^(?:did|does|do)$/i.test(subject[1]) ? words.slice(0, -1).join(' ') : subject[2];
    if (/^the\s+\S/i.test(phrase)) return phrase;
  }
  return RECORD.exec(first)?.[0];
}

/** "how long does it last" → "how long does the initial term of X last"; "what was its total" → "… the total of X". */
function resolvePronouns(question: string, referent: string | undefined): string {
  if (!referent) return question;
  return question
    .replace(/\bits\s+([\w-]+(?:\s+[\w-]+)??)(?=\s*$|\s+(?:is|are|was|were|in|at|on|for)\b)/iu, `the $1 of ${referent}`)
    .replace(/\bit\b/iu, referent);
}

/** "What are the pricing, risks and delivery timeline of X": one question per listed need. */
function splitList(question: string): string[] {
  const body = question.trim().replace(/[?.!]+$/, '');
  const lead = LEAD.exec(body)?.[1];
  if (!lead || !LIST_COMMA.test(body.slice(lead.length))) return [question.trim()];
  const tailMatch = TAIL.exec(body.slice(lead.length).split(LIST_COMMA).at(-1) ?? '');
  const tail = tailMatch?.[1] ?? '';
  const list = body.slice(lead.length, tail ? body.length - tail.length - 1 : body.length);
  const items = list
    .split(/\s*(?:(?<!\d),|,(?!\d))\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/i)
    // The lead already says "the": "the hotel limit, the daily meal limit" lists two limits.
    .map((item) => (/\bthe\s+$/i.test(lead) ? item.trim().replace(/^the\s+/i, '') : item.trim()))
    .filter(Boolean);
  if (items.length < 2) return [question.trim()];
  return items.map((item) => `${agree(lead, item)}${item}${tail ? ` ${tail}` : ''}?`.replace(/\s+/g, ' ').trim());
}

/**
 * Offline: a question asking several things becomes one question per need. Joined questions ("When did the term of
 * X start, and how long does it last?") are split first, a pronoun of a later one read as the first one's subject;
 * then a list of needs ("the pricing, risks and delivery timeline of X") becomes one question per need, each keeping
 * the shared lead ("What is the", its verb agreeing with the need) and subject ("of X"). A list needs a comma (not one
 * inside a number: "a trip that will cost $3,000") after a question's lead (not a clause's: "If …, how much …"), so
 * "termination for convenience and breach" stays one need.
 */
export function decomposeOffline(question: string): string[] {
  const parts = question
    .trim()
    .replace(/[?.!]+$/, '')
    .split(JOINED)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length < 2) return splitList(question);
  const referent = antecedent(parts[0] ?? '');
  return parts.flatMap((part, at) => {
    const asked = at === 0 ? part : resolvePronouns(part, referent);
    return splitList(`${asked.charAt(0).toUpperCase()}${asked.slice(1)}?`);
  });
}
