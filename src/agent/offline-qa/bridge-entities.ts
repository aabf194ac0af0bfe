import { contentTerms, IDENTIFIER, sentences, termSet } from '../../text/text-heuristics.ts';

/** A passage a bridge may be read from: what hop retrieval returned, best first. */
export interface BridgePassage {
  chunk_id: string;
  title: string;
  text: string;
}

/** An entity of a hop's evidence that may be that hop's answer, with the sentence that names it. */
export interface BridgeCandidate {
  text: string;
  score: number;
  chunk_id: string;
  sentence: string;
}

/** A run of capitalised words (or initials), allowing the small words inside names ("Bank of England", "G. Stanley Hall"). */
const NAME =
  /(?:\p{Lu}\.\s?)*\p{Lu}[\p{L}\p{N}'’.-]*(?:\s+(?:(?:of|the|de|da|du|von|van|der|and|for|&)\s+){0,2}(?:\p{Lu}\.\s?)*\p{Lu}[\p{L}\p{N}'’-]*)*/gu;
const QUOTED = /["“]([^"”]{2,80})["”]/gu;
const YEAR_OR_DATE =
  /\b(?:\d{1,2}\s+)?(?:January|February|March|April|May|June|July|August|September|October|November|December)(?:\s+\d{1,2},?)?\s+\d{4}\b|\b(?:1[0-9]|20)\d{2}\b/g;
/** Capitalised function words that start sentences without naming anything. */
const NOT_NAMES = new Set(
  'the a an it in on at he she they this that these those its his her their after before as when while during since its there however also although until unless though because for from with without within by to of into onto upon over under between among through throughout despite but and or nor yet so if then thus once where which who whom whose what both each all some most many several one two three we i you our my your following according'.split(
    ' ',
  ),
);
/** What a hop asks for, read from its question word or head noun, and the shape of value that fits it. */
const ASKS_TIME = /^\s*(?:when|what year|which year|in what year|what date)\b|\b(?:year|date|century|decade)\b/i;
/**
 * English writes places smallest first ("Nashville, Tennessee, United States"): in such a comma chain a hop asking
 * for a country wants the last name, one asking for a state or region the one before it, a city or town the first.
 */
const PLACE_SCALE: Record<string, 'largest' | 'middle' | 'smallest'> = {
  country: 'largest',
  nation: 'largest',
  state: 'middle',
  province: 'middle',
  region: 'middle',
  territory: 'middle',
  city: 'smallest',
  town: 'smallest',
  village: 'smallest',
  municipality: 'smallest',
  birthplace: 'smallest',
  location: 'smallest',
  place: 'smallest',
};
/** Month and day names: a date's words, a bridge only when the hop asks when. */
const CALENDAR =
  /^(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/;
/** A one-word demonym or nationality used as an adjective ("American singer", "Swedish film"): it describes, it names no bridge. */
const ADJECTIVAL_NAME = /^\p{Lu}\p{Ll}+(?:an|ish|ese|ic|i)$/u;
/** The kinds of place a name may say it is ("Ford County", "Oklahoma City"). */
const PLACE_NOUNS = new Set([
  'country',
  'nation',
  'state',
  'province',
  'region',
  'territory',
  'county',
  'district',
  'city',
  'town',
  'village',
  'municipality',
]);
const CHUNKS_READ = 4;
const SENTENCES_PER_CHUNK = 3;

const strip = (name: string): string =>
  name
    .replace(/['’]s$/u, '')
    .replace(/[.,;:]+$/u, (tail) => (/\b\p{Lu}\.$/u.test(name) ? tail.replace(/[,;:]+$/u, '') : ''))
    .trim();

/** Names, quoted titles and (when the hop asks when) dates a sentence states, in order. */
export function namesIn(sentence: string, withDates = false): string[] {
  const found: { text: string; at: number }[] = [];
  for (const match of sentence.matchAll(QUOTED)) found.push({ text: (match[1] as string).trim(), at: match.index });
  for (const match of sentence.matchAll(IDENTIFIER)) found.push({ text: match[0], at: match.index });
  for (const match of sentence.matchAll(NAME)) {
    let text = strip(match[0]);
    let at = match.index;
    const first = text.split(/\s+/)[0] ?? '';
    // "The Beatles" keeps its article only inside a name; a sentence's capitalised "The"/"He" alone is not a name.
    if (NOT_NAMES.has(first.toLowerCase())) {
      const rest = text.slice(first.length).trim();
      at += text.length - rest.length;
      text = rest;
    }
    if (text.length < 2 || NOT_NAMES.has(text.toLowerCase()) || CALENDAR.test(text)) continue;
    const following = sentence.slice(at + text.length).match(/^\s+(\p{Ll}+)/u)?.[1];
    if (ADJECTIVAL_NAME.test(text) && following && contentTerms(following).length > 0) continue;
    found.push({ text, at });
  }
  if (withDates) for (const match of sentence.matchAll(YEAR_OR_DATE)) found.push({ text: match[0], at: match.index });
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.at - b.at)
    .map((item) => item.text)
    .filter((text) => {
      const key = text.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** The names of a sentence that form comma chains ("A, B, C"), each name with its position and its chain's length. */
function chainPositions(sentence: string, names: readonly string[]): Map<string, { index: number; length: number }> {
  const positions = new Map<string, { index: number; length: number }>();
  let chain: string[] = [];
  let cursor = -1;
  const close = () => {
    chain.forEach((name, index) => positions.set(name.toLowerCase(), { index, length: chain.length }));
    chain = [];
  };
  for (const name of names) {
    const at = sentence.indexOf(name, Math.max(0, cursor));
    if (at < 0) continue;
    const between = cursor >= 0 ? sentence.slice(cursor, at) : '';
    if (chain.length > 0 && !/^\s*,\s*$/.test(between)) close();
    chain.push(name);
    cursor = at + name.length;
  }
  close();
  return positions;
}

/** How well a name's place in a comma chain fits the size of place the hop asks for (0 when the hop asks no place). */
function scaleFit(target: string | undefined, position: { index: number; length: number } | undefined): number {
  const scale = target ? PLACE_SCALE[target] : undefined;
  if (!scale || !position || position.length < 2) return 0;
  const wanted =
    scale === 'largest' ? position.length - 1 : scale === 'smallest' ? 0 : Math.max(0, position.length - 2);
  return position.index === wanted ? 0.3 : 0;
}

/** Stems of one family match ("director" and "directed" → "director", "direct"): a shared stem of five letters or more. */
const related = (a: string, b: string): boolean =>
  a === b || (a.length >= 5 && b.length >= 5 && (a.startsWith(b) || b.startsWith(a)));
const sharedTerms = (wanted: readonly string[], have: ReadonlySet<string>): number =>
  wanted.filter((term) => have.has(term) || [...have].some((other) => related(term, other))).length;

/** The noun the hop asks for ("country where Y was born" → "country"; "Which river …" → "river"). */
export function hopTarget(hop: string): string | undefined {
  const body = hop.trim().replace(/^(?:the|a|an)\s+/i, '');
  const wh = /^(?:which|what)\s+(?:is\s+the\s+|was\s+the\s+)?([\p{L}-]+)/iu.exec(body);
  if (wh) return wh[1]?.toLowerCase();
  const head = /^([\p{Ll}-]+)\b/u.exec(body);
  return head && !/^(?:who|whom|what|which|where|when|how|why)$/.test(head[1] as string) ? head[1] : undefined;
}

/**
 * Bridge entities of a hop: in the hop's best-matching evidence sentences (the first passages retrieved for it), the
 * names the question does not already name, scored by how well their sentence matches the hop, how early its passage
 * ranked, how near the name sits to the hop's words, and whether it carries the noun the hop asks for ("… River" for
 * "the river which …"). Best first, at most `max`.
 */
export function bridgeCandidates(
  hop: string,
  question: string,
  passages: readonly BridgePassage[],
  max = 3,
): BridgeCandidate[] {
  const hopTerms = [...termSet(hop.replace(/#\d+/g, ' '))];
  if (hopTerms.length === 0) return [];
  const asked = termSet(question.replace(/#\d+/g, ' '));
  const known = new Set([...asked, ...hopTerms]);
  const target = hopTarget(hop)?.toLowerCase();
  const withDates = ASKS_TIME.test(hop);
  const targetTerm = target ? contentTerms(target)[0] : undefined;
  const byName = new Map<string, BridgeCandidate>();
  // The hop's named things ("Peter Bonetti" in "the team of Peter Bonetti"): a passage titled by them is about them.
  const namedTerms = [...termSet(namesIn(hop).join(' '))];
  passages.slice(0, CHUNKS_READ).forEach((passage, rank) => {
    const titleTerms = termSet(passage.title);
    const titleOverlap = sharedTerms(hopTerms, titleTerms);
    const about = namedTerms.length ? sharedTerms(namedTerms, titleTerms) / namedTerms.length : 0;
    // "Privilege (Ivor Cutler album)": a title's parenthesis names what tells it apart, often the hop's answer.
    const qualifier = /\(([^)]+)\)\s*$/.exec(passage.title)?.[1];
    const scored = sentences(passage.text)
      .map(({ text }, index) => {
        const words = termSet(text);
        const overlap = sharedTerms(hopTerms, words);
        // A passage's first sentence defines its subject ("X is a song by Y"): it answers questions about the title.
        return { text, score: (overlap + (index === 0 ? 0.5 * titleOverlap : 0)) / hopTerms.length };
      })
      .filter((sentence) => sentence.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, SENTENCES_PER_CHUNK);
    if (qualifier && about > 0) scored.unshift({ text: qualifier, score: about });
    for (const sentence of scored) {
      const lower = sentence.text.toLowerCase();
      const anchors = hopTerms.map((term) => lower.indexOf(term.slice(0, 5))).filter((at) => at >= 0);
      const names = namesIn(sentence.text, withDates);
      const chains = chainPositions(sentence.text, names);
      for (const name of names) {
        const terms = contentTerms(name);
        if (terms.length === 0 || terms.every((term) => known.has(term))) continue;
        const at = lower.indexOf(name.toLowerCase());
        const distance = anchors.length ? Math.min(...anchors.map((anchor) => Math.abs(anchor - at))) : 80;
        const near = 1 / (1 + distance / 40);
        const fits =
          (target && name.toLowerCase().split(/\s+/).includes(target) ? 0.5 : 0) +
          scaleFit(target, chains.get(name.toLowerCase()));
        // The hop's answer is new: a name half made of the hop's own words ("Hill Country" for "… Lantern Hill") is likely a namesake.
        const fresh = terms.filter((term) => !known.has(term) || term === targetTerm).length / terms.length;
        // "Ford County" says it is a county: not the state a hop asks for.
        const otherPlace =
          target &&
          PLACE_NOUNS.has(target) &&
          name
            .toLowerCase()
            .split(/\s+/)
            .some((word) => PLACE_NOUNS.has(word) && word !== target);
        const score =
          ((sentence.score * (0.6 + 0.4 * near) * (0.5 + 0.5 * fresh) * (otherPlace ? 0.5 : 1) + fits) * (1 + about)) /
          (1 + 0.35 * rank);
        const key = name.toLowerCase();
        const previous = byName.get(key);
        if (!previous) byName.set(key, { text: name, score, chunk_id: passage.chunk_id, sentence: sentence.text });
        // A name several passages or sentences give is more likely the hop's answer.
        else previous.score = Math.max(previous.score, score) + 0.25 * Math.min(previous.score, score);
      }
    }
  });
  return [...byName.values()].sort((a, b) => b.score - a.score).slice(0, max);
}
