import { escapeRegExp, IDENTIFIER } from '../../text/text-heuristics.ts';

export type EntityType = 'identifier' | 'organisation' | 'name' | 'title';

export interface NamedEntity {
  text: string;
  type: EntityType;
}

/** Words that start a question or sentence in capitals without naming anything. */
const LEADING_WORDS = new Set(
  (
    'what which who whom whose when where why how is are was were do does did can could should would will shall may might ' +
    'in on at of for from by with the a an and or to please tell give show list describe explain summarise summarize ' +
    'find name according if after before during since as this that these those it its there i'
  ).split(' '),
);
/** Lowercase words allowed inside a multi-word name ("Bank of England", "Journal of the American …"). */
const LINKS = new Set(['of', 'the', 'de', 'du', 'la', 'von', 'van', 'der', 'and', '&', 'for', 'on']);
const ORGANISATION =
  /\b(corp|corporation|inc|ltd|llc|gmbh|ag|plc|company|co|group|university|college|association|institute|society|bank|agency|council|committee|ministry|department|foundation|party|club|league)\.?$/i;
const QUOTED = /["“]([^"”]{2,80})["”]/g;
/** A capitalised word (or initial such as "G."), letters of any script, inner apostrophes, dots and hyphens. */
const CAPITALISED = /^(?:\p{Lu}[\p{L}\p{N}'’.-]*|\p{Lu}\.)$/u;

const clean = (word: string): string =>
  word
    .replace(/^[("'“‘[]+|[)"'”’\],;:!?]+$/gu, '')
    .replace(/['’]s$/u, '')
    .replace(/\.$/, (dot) => (/^\p{Lu}\.$/u.test(word) ? dot : ''));

/**
 * Offline named-entity recognition: identifiers (CT-2024-0193), quoted titles, and runs of capitalised words
 * (people, places, organisations, works), linked by small words ("Bank of England"). A capitalised word that only
 * starts the sentence and is a question or function word is not a name. Deterministic; longest entity first.
 */
export function findEntitiesOffline(text: string): NamedEntity[] {
  const found: NamedEntity[] = [];
  const add = (entity: NamedEntity) => {
    if (!found.some((known) => known.text === entity.text)) found.push(entity);
  };
  for (const match of text.matchAll(IDENTIFIER)) add({ text: match[0], type: 'identifier' });
  for (const match of text.matchAll(QUOTED)) add({ text: (match[1] as string).trim(), type: 'title' });

  const masked = text.replace(IDENTIFIER, ' ').replace(QUOTED, ' ');
  const words = masked.split(/\s+/).filter(Boolean);
  let run: string[] = [];
  let pendingLinks: string[] = [];
  const flush = () => {
    if (run.length > 0) {
      const name = run.join(' ');
      add({ text: name, type: ORGANISATION.test(name) ? 'organisation' : 'name' });
    }
    run = [];
    pendingLinks = [];
  };
  words.forEach((raw, index) => {
    const word = clean(raw);
    // A comma between capitalised words continues the name ("Terrible, Horrible, No Good, Very Bad Day").
    const nextWord = clean(words[index + 1] ?? '');
    const commaInName = /,$/.test(raw) && CAPITALISED.test(nextWord) && !LEADING_WORDS.has(nextWord.toLowerCase());
    const endsClause =
      !commaInName && (/[,;:!?]$|[^A-Z]\.$/.test(raw) || /['’]s$/u.test(raw)) && !/^\p{Lu}\.$/u.test(raw);
    const sentenceStart = index === 0 || /[.!?]$/.test(words[index - 1] ?? '');
    const capitalised =
      word.length > 0 && CAPITALISED.test(word) && !(sentenceStart && LEADING_WORDS.has(word.toLowerCase()));
    if (capitalised && !(run.length === 0 && LEADING_WORDS.has(word.toLowerCase()) && word.length <= 3)) {
      run.push(...pendingLinks, commaInName ? `${word},` : word);
      pendingLinks = [];
    } else if (run.length > 0 && LINKS.has(word.toLowerCase()) && !endsClause) {
      pendingLinks.push(word);
    } else {
      flush();
    }
    if (endsClause) flush();
  });
  flush();
  return found.sort((a, b) => b.text.length - a.text.length);
}

/** The variable that stands for the n-th entity (1-based): ENTITY_1, ENTITY_2, … */
export const entityVariable = (n: number): string => `ENTITY_${n}`;

/**
 * Replaces each entity that occurs in the text by a variable, longest entity first (so "Bank of England" is not
 * split by "England"). Entities the text does not contain are ignored, so a model's list cannot inject text.
 */
export function anonymize(
  text: string,
  entities: readonly NamedEntity[],
): { anonymized: string; mapping: Record<string, string> } {
  const mapping: Record<string, string> = {};
  let anonymized = text;
  let n = 0;
  for (const entity of [...entities].sort((a, b) => b.text.length - a.text.length)) {
    const name = entity.text.trim();
    if (name.length < 2) continue;
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(name)}(?![\\p{L}\\p{N}_])`, 'gu');
    if (!pattern.test(anonymized)) continue;
    const variable = entityVariable(++n);
    mapping[variable] = name;
    anonymized = anonymized.replace(pattern, variable);
  }
  return { anonymized, mapping };
}

/** Puts the entities back: every variable of the mapping in the text becomes the entity it stands for. */
export function deanonymize(text: string, mapping: Readonly<Record<string, string>>): string {
  let out = text;
  // ENTITY_12 before ENTITY_1.
  for (const variable of Object.keys(mapping).sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(`\\b${escapeRegExp(variable)}\\b`, 'g'), mapping[variable] as string);
  }
  return out;
}
