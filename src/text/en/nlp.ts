/**
 * compromise, loaded on first use (its lexicon takes ~0.4 s to build, which a process that never reads English
 * questions should not pay) and asked only about short texts: a question, or the few candidate sentences a
 * reader considers. Results are cached by text in a bounded map.
 */
import { createRequire } from 'node:module';

interface View {
  out(format: 'array'): string[];
}
interface Document {
  people(): View;
  places(): View;
  organizations(): View;
}
type Nlp = (text: string) => Document;

let nlp: Nlp | null | undefined;

function load(): Nlp | null {
  if (nlp !== undefined) return nlp;
  try {
    const require = createRequire(import.meta.url);
    nlp = require('compromise') as Nlp;
  } catch {
    nlp = null;
  }
  return nlp;
}

export interface NamedThings {
  people: string[];
  places: string[];
  organizations: string[];
}

const EMPTY: NamedThings = { people: [], places: [], organizations: [] };
const cache = new Map<string, NamedThings>();
const CACHE_LIMIT = 5_000;
/** Longer texts are cut: compromise's cost grows with length and names sit in every part of a passage alike. */
const MAX_TEXT = 2_000;

/** compromise splits a hyphenated word and may end a name at its hyphen ("Kim Il-" of "Kim Il-sung's"): read the whole word. */
function wholeWords(item: string, text: string): string {
  if (!item.endsWith('-')) return item;
  const at = text.indexOf(item);
  if (at < 0) return item.slice(0, -1);
  const rest = /^[\p{L}\p{M}]+(?:-[\p{L}\p{M}]+)*/u.exec(text.slice(at + item.length));
  return rest ? item + rest[0] : item.slice(0, -1);
}

const clean = (items: string[], text: string): string[] => [
  ...new Set(
    items
      .map((item) => wholeWords(item.replace(/^[\s"'“‘(]+|[\s"'”’),.;:!?]+$/gu, ''), text).replace(/['’]s$/u, ''))
      .filter((item) => item.length > 1),
  ),
];

/** People, places and organisations compromise recognises in an English text, as written. */
export function namedThings(text: string): NamedThings {
  const key = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  const known = cache.get(key);
  if (known) return known;
  const parse = load();
  if (!parse) return EMPTY;
  const doc = parse(key);
  const found = {
    people: clean(doc.people().out('array'), key),
    places: clean(doc.places().out('array'), key),
    organizations: clean(doc.organizations().out('array'), key),
  };
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, found);
  return found;
}
