import { createRequire } from 'node:module';
import type compromise from 'compromise';
import { contentTerms, IDENTIFIER } from '../../text/text-heuristics.ts';

/**
 * Offline decomposition of a compositional question into a chain of hops, innermost first, where a later hop refers
 * to an earlier hop's answer as `#n` (1-based): "Who is the spouse of the director of X?" → ["the director of X",
 * "Who is the spouse of #1?"]. Three English constructions nest a question inside another, and each is read off the
 * question's words and their parts of speech (compromise), never off a list of topics:
 * - a relative clause about a named thing: "the city where Y was born", "the association which published X";
 * - a possessive of a named thing: "X's main director" (read as "the main director of X");
 * - an "of/by" phrase whose object is named: "the author of X", "the performer of #1".
 * A construction only makes a hop when the rest of the question still asks something about its answer.
 */

/**
 * compromise, loaded on the first question that needs the tagger, as the other English taggers load it (its one-file
 * CommonJS build, shared with them: one copy of its lexicon in the process, and no load for a question without one).
 */
let nlp: typeof compromise | undefined;
const tagger = (): typeof compromise => (nlp ??= createRequire(import.meta.url)('compromise') as typeof compromise);

/** Hops nested beyond this many are left inside the last one. */
export const MAX_HOPS = 4;

interface Token {
  text: string;
  /** Offset of the token in the question body. */
  start: number;
  end: number;
  verb: boolean;
  auxiliary: boolean;
  noun: boolean;
  adjective: boolean;
  /** A participle or gerund ("containing", "named"): it can open a reduced relative clause. */
  participle: boolean;
}

const QUESTION_WORDS = new Set(
  'what which who whom whose when where why how is are was were do does did can could should would will in on at of for from by with the a an and or to besides'.split(
    ' ',
  ),
);
/** Only a definite description ("the author of X") names one thing a later hop can be about; "a member of X" does not. */
const DETERMINERS = new Set(['the']);
/** Words that open a clause nested inside a relative clause ("… lived in | when he died"). */
const SUBORDINATORS = new Set([
  'which',
  'that',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'if',
  'because',
  'while',
  'after',
  'before',
]);
const RELATIVE_PRONOUNS = new Set(['which', 'that', 'who', 'whom', 'whose', 'where', 'when']);
const CLAUSE_PREPOSITIONS = new Set(['in', 'at', 'on', 'of', 'from', 'by', 'for', 'with', 'to', 'under', 'into']);
const OF_WORDS = new Set(['of', 'by']);
/** Lowercase words allowed inside a multi-word name ("Bank of England", "Leonardo da Vinci"). */
const NAME_LINKS = new Set([
  'of',
  'the',
  'de',
  'da',
  'du',
  'la',
  'von',
  'van',
  'der',
  'and',
  '&',
  'for',
  'on',
  'in',
  'with',
  'to',
  'a',
]);
const PLACEHOLDER = /^(?:ENTITY_\d+|#\d+)$/;
const bare = (word: string): string => word.replace(/^[("'“‘[]+|[)"'”’\],;:!?.]+$/gu, '').replace(/['’]s$/u, '');

interface Tags {
  verb: boolean;
  auxiliary: boolean;
  noun: boolean;
  adjective: boolean;
  participle: boolean;
}

const NO_TAGS: Tags = { verb: false, auxiliary: false, noun: false, adjective: false, participle: false };

/**
 * The parts of speech of a question's words, keyed by the whitespace token they start. Tagged once per question:
 * every hop is made of the question's own words (and `#n`), so its splits read the same tags.
 */
function tagWords(body: string): Map<string, Tags> {
  const byWord = new Map<string, Tags>();
  const terms: { start: number; tags: Set<string> }[] = [];
  let cursor = 0;
  for (const sentence of tagger()(body).json() as { terms: { text: string; tags: string[] }[] }[]) {
    for (const term of sentence.terms) {
      const at = body.indexOf(term.text, cursor);
      if (at < 0) continue;
      terms.push({ start: at, tags: new Set(term.tags) });
      cursor = at + term.text.length;
    }
  }
  for (const match of body.matchAll(/\S+/g)) {
    const own = terms.find((term) => term.start >= match.index && term.start < match.index + match[0].length)?.tags;
    if (!own || byWord.has(match[0])) continue;
    byWord.set(match[0], {
      verb: own.has('Verb'),
      auxiliary: own.has('Auxiliary') || own.has('Copula') || own.has('Modal'),
      noun: own.has('Noun') && !own.has('Pronoun'),
      adjective: own.has('Adjective'),
      participle: own.has('Gerund') || own.has('Participle') || own.has('PastTense'),
    });
  }
  return byWord;
}

/** Whitespace tokens of a hop with the tags their words have in the question. */
function tokenize(body: string, tags: ReadonlyMap<string, Tags>): Token[] {
  return [...body.matchAll(/\S+/g)].map((match) => ({
    text: match[0],
    start: match.index,
    end: match.index + match[0].length,
    ...(tags.get(match[0]) ?? tags.get(match[0].replace(/[?.!]+$/, '')) ?? NO_TAGS),
  }));
}

/** A token that names something: a capitalised word past the question's first, an identifier, a placeholder or a reference. */
function isNamed(token: Token, index: number): boolean {
  const word = bare(token.text);
  if (PLACEHOLDER.test(word) || IDENTIFIER.test(word)) {
    IDENTIFIER.lastIndex = 0;
    return true;
  }
  IDENTIFIER.lastIndex = 0;
  if (/^["“]/.test(token.text)) return true;
  return index > 0 && /^\p{Lu}/u.test(word) && !QUESTION_WORDS.has(word.toLowerCase());
}

/**
 * Where a relative clause starting at `from` ends: before a second verb group once the clause has its verb and no
 * clause nested in it ("where Y is located | became a state", "who played Z in W | is stuck in …"), or at a comma
 * that a name does not continue past ("Johnnycake, West Virginia"). In a question with do-support ("… did the
 * location where X occur | handle in 2010?") the main verb still follows the clause: a plain word right after the
 * clause's own verb, or after a noun of its complement, is that verb if it reads as one (`mainVerbAt`), whatever the
 * tagger called it in the question.
 */
function clauseEnd(tokens: readonly Token[], from: number, doSupport = false): number {
  let seenVerb = false;
  let nested = false;
  for (let i = from; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const previous = tokens[i - 1];
    const sameGroup =
      previous !== undefined &&
      i > from &&
      ((previous.verb && previous.auxiliary) || previous.text.toLowerCase() === 'to');
    if (seenVerb && !nested && token.verb && !sameGroup && i > from) return i;
    if (doSupport && seenVerb && !nested && i > from && isMainVerbWord(token, i) && mainVerbAt(tokens, i)) return i;
    if (token.verb) seenVerb = true;
    if (seenVerb && SUBORDINATORS.has(bare(token.text).toLowerCase())) nested = true;
    const next = tokens[i + 1];
    if (/[,;]$/.test(token.text) && !(next && isNamed(next, i + 1))) return i + 1;
  }
  return tokens.length;
}

/** Do-support before a noun phrase: "did the location …" waits for its main verb after the phrase. */
const DO_SUPPORT = new Set(['do', 'does', 'did']);
/** A lowercase word that is no preposition, determiner, question word or adverb-like ending: it can be a bare verb. */
const isMainVerbWord = (token: Token, index: number): boolean => {
  const word = bare(token.text);
  return (
    /^\p{Ll}+$/u.test(word) &&
    !isNamed(token, index) &&
    !QUESTION_WORDS.has(word) &&
    !CLAUSE_PREPOSITIONS.has(word) &&
    !SUBORDINATORS.has(word) &&
    !/ly$/.test(word)
  );
};

/**
 * Whether the word at `i` is the main verb a do-support question still waits for: it follows the clause's verb, or a
 * noun of its complement and reads as a verb after a subject ("the heron | choose its flag": "they choose its flag").
 */
function mainVerbAt(tokens: readonly Token[], i: number): boolean {
  const previous = tokens[i - 1] as Token;
  if (previous.verb && !previous.auxiliary) return true;
  if (!previous.noun && !previous.participle) return false;
  const rest = tokens
    .slice(i)
    .map((token) => token.text)
    .join(' ');
  const [, verb] = (tagger()(`they ${rest}`).json() as { terms: { tags: string[] }[] }[])[0]?.terms ?? [];
  return verb?.tags.includes('Verb') === true;
}

interface Split {
  /** The nested question (its hop), as words of the question. */
  inner: string;
  /** The question with `#REF` where the nested one's answer goes. */
  outer: string;
}

const words = (tokens: readonly Token[], from: number, to: number): string =>
  tokens
    .slice(from, to)
    .map((token) => token.text)
    .join(' ')
    .replace(/[,;]$/, '');

function outerOf(body: string, tokens: readonly Token[], from: number, to: number, trailingComma = false): string {
  const before = body.slice(0, tokens[from]?.start ?? 0);
  const after = to < tokens.length ? body.slice((tokens[to - 1] as Token).end) : '';
  return `${before}#REF${trailingComma ? '' : ''}${after}`
    .replace(/#REF,\s*(?=\S)/, '#REF ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The outer question still asks something beyond the nested answer, and reads as a question: no copula on both sides
 * of the answer ("who are #REF was fought" split a clause off its own verb).
 */
const asksMore = (outer: string): boolean =>
  contentTerms(outer.replace(/#REF|#\d+|ENTITY_\d+/g, ' ')).length > 0 &&
  !/\b(?:is|are|was|were)\s+#REF\s+(?:is|are|was|were|has|have|had)\b/iu.test(outer);

/** The determiner of the noun phrase of one to three words ending before `end`, or -1; the phrase crosses no comma or verb. */
function headDeterminer(tokens: readonly Token[], end: number): number {
  for (let d = end - 1; d >= Math.max(0, end - 4); d--) {
    const token = tokens[d] as Token;
    if (d < end - 1 && /[,;]$/.test(token.text)) return -1;
    if (DETERMINERS.has(token.text.toLowerCase())) return d + 1 < end ? d : -1;
    if (token.verb && !token.participle) return -1;
  }
  return -1;
}

/** Where a relative clause opens at token `p`, the index its clause starts at and where its head noun phrase ends. */
function relativeOpening(tokens: readonly Token[], p: number): { nounEnd: number; clauseStart: number } | undefined {
  const token = tokens[p] as Token;
  const word = bare(token.text).toLowerCase();
  const before = tokens[p - 1] as Token;
  if (RELATIVE_PRONOUNS.has(word)) {
    const preposition =
      CLAUSE_PREPOSITIONS.has(bare(before.text).toLowerCase()) && (word === 'which' || word === 'whom');
    // "where did Germany …" is a new question, not a clause about the noun before it.
    const next = tokens[p + 1];
    if (next?.verb && next.auxiliary && word !== 'who' && word !== 'that' && word !== 'which') return undefined;
    return { nounEnd: preposition ? p - 1 : p, clauseStart: p + 1 };
  }
  // A reduced relative: "the country containing X", "the book named after Y".
  if (token.verb && token.participle && !token.auxiliary && before.noun && !isNamed(before, p - 1))
    return { nounEnd: p, clauseStart: p };
  // A contact clause: "the country X is from", "the company X is part of".
  if (isNamed(token, p) && before.noun && !isNamed(before, p - 1) && !/[,;]$/.test(before.text)) {
    const verbAt = tokens.findIndex((t, i) => i > p && t.verb);
    if (
      verbAt > p &&
      tokens.slice(p, verbAt).every((t, i) => isNamed(t, p + i) || NAME_LINKS.has(t.text.toLowerCase()))
    )
      return { nounEnd: p, clauseStart: p };
  }
  return undefined;
}

/** "… the association which published X" / "… the state in which Y is": the last such clause that names something. */
function relativeSplit(body: string, tokens: readonly Token[]): Split | undefined {
  for (let p = tokens.length - 2; p >= 2; p--) {
    const opening = relativeOpening(tokens, p);
    if (!opening) continue;
    const det = headDeterminer(tokens, opening.nounEnd);
    if (det < 0) continue;
    if (tokens.slice(det + 1, opening.nounEnd).some((token, i) => isNamed(token, det + 1 + i))) continue;
    // A contact clause is no subject of a relative clause ("the city where | the next winter Olympics will be held").
    const contact = opening.clauseStart === p && isNamed(tokens[p] as Token, p);
    if (contact && RELATIVE_PRONOUNS.has(bare(tokens[det - 1]?.text ?? '').toLowerCase())) continue;
    const doSupport = DO_SUPPORT.has((tokens[det - 1]?.text ?? '').toLowerCase());
    const end = clauseEnd(tokens, opening.clauseStart, doSupport);
    if (end <= opening.clauseStart) continue;
    const clause = tokens.slice(opening.clauseStart, end);
    if (!clause.some((token, i) => isNamed(token, opening.clauseStart + i))) continue;
    const outer = outerOf(body, tokens, det, end);
    if (!asksMore(outer)) continue;
    return { inner: words(tokens, det + 1, end), outer };
  }
  return undefined;
}

/**
 * The things a question describes by a relative clause that names nothing ("the state whose official sport is
 * jousting", "the continent where most of the globe gets its coffee"): no hop can be read off a name, but the
 * clause says what the answer must be about. Each as its head noun phrase and its clause, outermost last.
 */
export function describedClauses(question: string): { head: string; clause: string }[] {
  const body = question.trim().replace(/[?.!]+$/, '');
  if (!/\s(?:which|that|who|whom|whose|where|when)\s/iu.test(body)) return [];
  const tokens = tokenize(body, tagWords(body));
  const found: { head: string; clause: string }[] = [];
  for (let p = tokens.length - 2; p >= 2; p--) {
    const opening = relativeOpening(tokens, p);
    if (!opening || opening.clauseStart !== p + 1) continue;
    const det = headDeterminer(tokens, opening.nounEnd);
    if (det < 0) continue;
    const doSupport = DO_SUPPORT.has((tokens[det - 1]?.text ?? '').toLowerCase());
    const end = clauseEnd(tokens, opening.clauseStart, doSupport);
    const clause = tokens.slice(opening.clauseStart, end);
    if (clause.length === 0 || clause.some((token, i) => isNamed(token, opening.clauseStart + i))) continue;
    found.push({ head: words(tokens, det, opening.nounEnd), clause: words(tokens, opening.clauseStart, end) });
  }
  return found;
}

/** The run of named tokens (with small linking words) ending at `last`, as its first index. */
function nameStart(tokens: readonly Token[], last: number): number {
  let start = last;
  for (let i = last - 1; i >= 1; i--) {
    const token = tokens[i] as Token;
    if (/[,;]$/.test(token.text)) break;
    if (isNamed(token, i)) start = i;
    else if (!NAME_LINKS.has(token.text.toLowerCase()) || !isNamed(tokens[i - 1] as Token, i - 1)) break;
  }
  return start;
}

/** "X's main director" → "the main director of X". */
function possessiveSplit(body: string, tokens: readonly Token[]): Split | undefined {
  for (let i = tokens.length - 2; i >= 0; i--) {
    const token = tokens[i] as Token;
    if (!/['’]s?$/u.test(token.text.replace(/[,;]$/, '')) || !isNamed(token, i === 0 ? 1 : i)) continue;
    if (/[,;]$/.test(token.text)) continue;
    let end = i + 1;
    while (end < tokens.length && end - i <= 3) {
      const next = tokens[end] as Token;
      if (!(next.noun || next.adjective) || next.verb || isNamed(next, end)) break;
      end++;
      if (/[,;?]$/.test(next.text)) break;
    }
    if (end === i + 1) continue;
    const start = nameStart(tokens, i);
    const name = `${words(tokens, start, i)} ${token.text.replace(/['’]s?$/u, '')}`.trim();
    const noun = words(tokens, i + 1, end).replace(/[?.!]$/, '');
    const outer = outerOf(body, tokens, start, end);
    if (!asksMore(outer)) continue;
    return { inner: `the ${noun} of ${name}`, outer };
  }
  return undefined;
}

/** "the author of X", "the performer of #1": a thing known only through a named one. */
function ofNamedSplit(body: string, tokens: readonly Token[]): Split | undefined {
  for (let o = tokens.length - 2; o >= 2; o--) {
    if (!OF_WORDS.has((tokens[o] as Token).text.toLowerCase()) || !isNamed(tokens[o + 1] as Token, o + 1)) continue;
    const det = headDeterminer(tokens, o);
    // "the Siege of Cassel" is one name, not a thing known through Cassel.
    if (det < 0 || tokens.slice(det + 1, o).some((token, i) => isNamed(token, det + 1 + i))) continue;
    const end = nameEnd(tokens, o + 1);
    const outer = outerOf(body, tokens, det, end);
    if (!asksMore(outer)) continue;
    return { inner: words(tokens, det + 1, end).replace(/[?.!]$/, ''), outer };
  }
  return undefined;
}

/** The end (exclusive) of the name starting at `start`: capitalised words, small links between them, commas inside titles. */
function nameEnd(tokens: readonly Token[], start: number): number {
  let end = start + 1;
  while (end < tokens.length) {
    const previous = tokens[end - 1] as Token;
    if (/[?]$/.test(previous.text)) break;
    if (/[,;]$/.test(previous.text) && !isNamed(tokens[end] as Token, end)) break;
    if (isNamed(tokens[end] as Token, end)) {
      end++;
      continue;
    }
    let link = end;
    while (link < tokens.length && link - end < 2 && NAME_LINKS.has((tokens[link] as Token).text.toLowerCase())) link++;
    if (link > end && link < tokens.length && isNamed(tokens[link] as Token, link)) end = link + 1;
    else break;
  }
  return end;
}

function splitOnce(body: string, tags: ReadonlyMap<string, Tags>): Split | undefined {
  const tokens = tokenize(body, tags);
  if (tokens.length < 4) return undefined;
  return relativeSplit(body, tokens) ?? possessiveSplit(body, tokens) ?? ofNamedSplit(body, tokens);
}

/** `body` as hops: its nested questions first (each split again), then what is left of it, `#n` numbered from `base`. */
function hopsOf(body: string, base: number, budget: number, tags: ReadonlyMap<string, Tags>): string[] {
  const hops: string[] = [];
  let rest = body;
  while (hops.length < budget - 1) {
    const split = splitOnce(rest, tags);
    if (!split) break;
    const inner = hopsOf(split.inner, base + hops.length, budget - hops.length - 1, tags);
    hops.push(...inner);
    rest = split.outer.replace('#REF', `#${base + hops.length}`);
  }
  return [...hops, rest];
}

/**
 * The question as a chain of hops, innermost first; a later hop names an earlier answer as `#n`. A question that
 * nests nothing is its own single hop.
 */
export function decomposeHops(question: string, maxHops = MAX_HOPS): string[] {
  const trimmed = question.trim();
  const mark = /[?]$/.test(trimmed) ? '?' : '';
  const body = trimmed.replace(/[?.!]+$/, '').trim();
  if (!body) return [trimmed];
  // Every construction nests a named thing: a question naming nothing past its first word skips the tagger.
  if (!/\s(?:["“]|#\d|ENTITY_\d|[\p{Lu}\d])/u.test(body)) return [trimmed];
  const hops = hopsOf(body, 0, Math.max(1, maxHops), tagWords(body));
  if (hops.length < 2) return [trimmed];
  return hops.map((hop, i) => (i === hops.length - 1 ? `${hop}${mark}` : hop));
}
