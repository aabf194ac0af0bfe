import { createRequire } from 'node:module';
import { englishKeyTerms } from '../../text/en/en.ts';

/**
 * The head of an English question's focus: the word or words that name the asked attribute, beyond the thing it is
 * asked about. "Which support engineer handled HIP-12?" asks for an engineer; "What is the phone number of the
 * security on-call?" for a phone number; "Who signed CT-2024-0193?" for whoever signed; "How often must partners
 * rotate their secret?" for how often they rotate. A passage that names HIP-12 without naming an engineer (or a
 * synonym) mentions the topic but does not state the answer. Read from compromise's part-of-speech tags; [] when the
 * question has no such shape (a yes/no question, a request) or compromise is not installed.
 */

interface Term {
  normal: string;
  tags: string[];
}
type Nlp = (text: string) => { json(): { terms: Term[] }[] };

let nlp: Nlp | null | undefined;
function load(): Nlp | null {
  if (nlp !== undefined) return nlp;
  try {
    nlp = createRequire(import.meta.url)('compromise') as Nlp;
  } catch {
    nlp = null;
  }
  return nlp;
}

const AUXILIARY = new Set([
  'do',
  'does',
  'did',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'has',
  'have',
  'had',
  'can',
  'could',
  'will',
  'would',
  'shall',
  'should',
  'may',
  'might',
  'must',
]);
const has = (term: Term, ...tags: string[]): boolean => tags.some((tag) => term.tags.includes(tag));
const isAuxiliary = (term: Term): boolean => AUXILIARY.has(term.normal) || has(term, 'Copula', 'Auxiliary', 'Modal');
/** Words that end a noun phrase: "the phone number | of the security on-call". */
const stopsPhrase = (term: Term): boolean =>
  has(term, 'Preposition', 'Conjunction', 'QuestionWord') || isAuxiliary(term);

/** Up to three words of the noun phrase from `start`, determiners skipped; a verb ends it once a noun is taken. */
function nounPhrase(terms: readonly Term[], start: number): string[] {
  const out: string[] = [];
  let noun = false;
  for (let i = start; i < terms.length && out.length < 3; i++) {
    const term = terms[i] as Term;
    if (has(term, 'Determiner') && out.length === 0) continue;
    if (stopsPhrase(term) || (noun && has(term, 'Verb'))) break;
    if (has(term, 'Value', 'Acronym', 'ProperNoun')) break;
    out.push(term.normal.replace(/['’]s$/u, ''));
    noun ||= has(term, 'Noun');
  }
  return noun ? out : [];
}

/** The first main verb from `start` (auxiliaries skipped). */
function mainVerb(terms: readonly Term[], start: number): string[] {
  for (let i = start; i < terms.length; i++) {
    const term = terms[i] as Term;
    if (has(term, 'Verb') && !isAuxiliary(term)) return [term.normal];
  }
  return [];
}

export interface EnglishHead {
  /** The head as written (lower-cased): "support engineer", "signed". */
  words: string[];
  /** A noun phrase the question asks about, or the verb whose subject, time or manner it asks for. */
  kind: 'noun' | 'verb';
  /** Its analyzer terms (what a passage must state). */
  terms: string[];
}

const cache = new Map<string, EnglishHead>();
const CACHE_LIMIT = 2_000;

/** The head of an English question's focus. */
export function englishHead(question: string): EnglishHead {
  const known = cache.get(question);
  if (known) return known;
  const parse = load();
  const terms = parse ? (parse(question).json()[0]?.terms ?? []) : [];
  const at = terms.findIndex((term) => has(term, 'QuestionWord'));
  let words: string[] = [];
  let kind: EnglishHead['kind'] = 'noun';
  const wh = terms[at];
  const next = terms[at + 1];
  const verb = (start: number) => {
    kind = 'verb';
    return mainVerb(terms, start);
  };
  if (wh && next) {
    if ((wh.normal === 'what' || wh.normal === 'which' || wh.normal === 'whose') && !isAuxiliary(next))
      words = nounPhrase(terms, at + 1);
    else if (wh.normal === 'what' || wh.normal === 'which') words = nounPhrase(terms, at + 2);
    else if (wh.normal === 'how' && (next.normal === 'much' || next.normal === 'many'))
      words = terms[at + 2] && has(terms[at + 2] as Term, 'Noun') ? nounPhrase(terms, at + 2) : verb(at + 2);
    else words = verb(at + 1);
  }
  const head = { words, kind, terms: englishKeyTerms(words.join(' ')) };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(question, head);
  return head;
}
