/** Nouns a question asks a person by ("the director of …", "the person who made …"). */
export const PERSON_NOUNS = new Set(
  'person director spouse wife husband author writer producer singer performer composer founder father mother son daughter creator actor actress owner president leader'.split(
    ' ',
  ),
);

/** Nouns a question asks a place by ("the country …", "the birthplace of …"). */
export const PLACE_NOUNS = new Set(
  'country nation state province region territory county city town village municipality continent birthplace location place capital colony island river mountain lake'.split(
    ' ',
  ),
);

/** Nouns of the other named things a question may describe instead of naming ("the band that made …"). */
const NAMED_KIND_NOUNS = new Set(
  'company band team club party university school association organization organisation publisher network album film movie book novel song show series newspaper magazine league war battle treaty'.split(
    ' ',
  ),
);

/**
 * Whether a noun phrase's head ("the state", "the first colony") is a kind of named thing — a person, a place, an
 * organisation, a work — which a passage names, rather than a kind of answer ("the categories of people").
 */
export function namesAKind(phrase: string): boolean {
  const head = phrase.trim().split(/\s+/u).at(-1)?.toLowerCase() ?? '';
  return PERSON_NOUNS.has(head) || PLACE_NOUNS.has(head) || NAMED_KIND_NOUNS.has(head);
}
