import type { Evidence } from '../../../domain/evidence.ts';
import type { AnswerType } from '../../../text/language.ts';
import { escapeRegExp } from '../../../text/text-heuristics.ts';
import { names } from './cited-reading.ts';
import { describedName, tellsDescription } from './described-thing.ts';
import { measuredType } from './measured-type.ts';
import type { QuestionView } from './question-view.ts';
import type { ValueTie } from './value-ties.ts';

/** A chunk as the gate looks for names in it: its document, title, heading and text. */
export const chunkText = (chunk: Evidence): string =>
  `${chunk.doc_id.replace(/[/_.-]+/g, ' ')} ${chunk.title} ${chunk.heading} ${chunk.text}`;

/** The question's names a tie leaves unnamed (none: the tie is about what the question names). */
export type UnnamedBy = (tie: ValueTie) => string[];

/**
 * Which of the question's names a tie leaves unnamed. Every entity must be named by the cited evidence, and by the
 * value's own document — or, across documents, by a cited chunk that also names something the value's sentence (or
 * its chunk's title) names: the bridge of a nested question ("Signmark is from Finland" beside "the markka was
 * Finland's currency"). A value in another document that shares no name with what the question names is about a
 * neighbour ("Darwin's evolutionary theory" for the first president of the journal's publisher). Every identifier
 * must be named by the chunk that states the value itself. A nested question's resolved last hop ("the first president
 * of the American Psychological Association") names its bridge already: no further bridge is read (`bridging: false`).
 * A sentence naming a namesake of an entity and not the entity ("Kim Jong-il" for "Kim Jong-chul") is about the namesake.
 */
export function unnamedBy(
  view: QuestionView,
  cited: readonly Evidence[],
  { bridging = true, weights }: { bridging?: boolean; weights?: ReadonlyMap<string, number> } = {},
): UnnamedBy {
  const text = cited.map(chunkText).join('\n');
  const personNamed = personNamer(view, text);
  // A thing the question describes ("the state whose official sport is jousting") is held to the evidence as a name is.
  const described = new Map(view.described.map((thing) => [describedName(thing), thing.terms]));
  const namedIn = (within: string, entity: string): boolean => {
    const terms = described.get(entity);
    return terms ? tellsDescription(within, terms, weights) : personNamed(within, entity);
  };
  const asked = [...view.entities, ...described.keys()];
  const unnamed = asked.filter((entity) => !namedIn(text, entity));
  const byChunk = new Map<string, string[]>();
  const bySentence = new Map<string, string[]>();
  // A value the question measures (a number, a date, an amount, a length): names beside it are what it is about.
  const naming = !NAME_TYPES.has(measuredType(view)) && view.entities.length > 0;
  const namers = (entity: string): Evidence[] => cited.filter((chunk) => namedIn(chunkText(chunk), entity));
  /** The names a tie's sentence (or its chunk's title) gives beside the question's own, read once per sentence. */
  const bridgesOf = ({ sentence }: ValueTie): string[] => {
    const key = `${sentence.chunk.chunk_id}\n${sentence.text}`;
    const known = bySentence.get(key);
    if (known) return known;
    const read = [sentence.chunk.title, ...view.module.entities(`${sentence.before} ${sentence.text}`)].filter(
      (name) => name.trim().length > 1 && !view.entities.some((asked) => names(name, asked) || names(asked, name)),
    );
    bySentence.set(key, read);
    return read;
  };
  const bridged = (tie: ValueTie, entity: string): boolean => {
    const bridges = bridgesOf(tie);
    return namers(entity).some(
      (other) => other.doc_id === tie.sentence.chunk.doc_id || bridges.some((name) => names(chunkText(other), name)),
    );
  };
  return (tie) => {
    if (naming && aboutAnother(view, tie)) return view.entities.filter((entity) => !names(tie.sentence.text, entity));
    const namesakes = namesakesIn(view, tie.sentence.text);
    if (namesakes.length) return namesakes;
    const chunk = tie.sentence.chunk;
    let own = byChunk.get(chunk.chunk_id);
    if (!own) {
      const ownText = chunkText(chunk);
      own = [...new Set([...view.identifiers, ...asked])].filter(
        (entity) => !namedIn(ownText, entity) && !unnamed.includes(entity),
      );
      byChunk.set(chunk.chunk_id, own);
    }
    const far = own.filter((entity) => view.identifiers.includes(entity) || !bridging || !bridged(tie, entity));
    return [...unnamed, ...far];
  };
}

/**
 * `names`, and for a person the question or the evidence names in full, their surname alone ("Sheeran also revealed
 * …" in a passage about Ed Sheeran's song), unless the text names someone else by that surname ("Laura Bush" is not
 * George Bush). English names only: a Chinese name is written whole.
 */
export function personNamer(view: QuestionView, evidence: string): (text: string, entity: string) => boolean {
  if (HAN.test(evidence)) return names;
  const people = new Set(
    view.entities.filter((entity) => {
      const words = entity.trim().split(/\s+/u);
      if (words.length < 2 || !words.every((word) => /^\p{Lu}[\p{L}'’.-]*$/u.test(word))) return false;
      const asPerson = (span: { text: string }): boolean => span.text === entity;
      if (view.module.spans(view.question, 'person').some(asPerson)) return true;
      // Where the evidence writes the name in full: the words around it say whether it is a person's.
      const at = evidence.indexOf(entity);
      return (
        at >= 0 &&
        view.module.spans(evidence.slice(Math.max(0, at - 80), at + entity.length + 80), 'person').some(asPerson)
      );
    }),
  );
  return (text, entity) => {
    if (names(text, entity)) return true;
    if (!people.has(entity)) return false;
    const words = entity.trim().split(/\s+/u);
    const surname = words.at(-1) as string;
    if (!new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(surname)}(?![\\p{L}\\p{N}])`, 'u').test(text)) return false;
    return !view.module.spans(text, 'person').some((span) => span.text.endsWith(` ${surname}`) && span.text !== entity);
  };
}

/** Questions that ask for a name: the names in a sentence are its candidate answers, not what it is about. */
const NAME_TYPES = new Set<AnswerType>(['person', 'organization', 'place', 'list', 'definition', 'any']);

const HAN = /\p{Script=Han}/u;
/** How far into a sentence its subject starts, in characters: "Peters et al. (2018b) presented …". */
const SUBJECT_REACH = 12;

/**
 * A sentence that names none of the question's names and opens with another one ("Peters et al. (2018b) … and
 * Melamud et al. (2016) mentioned … hidden size from 200 to 600" for BERT-LARGE's hidden size) speaks of that other
 * thing, though its chunk names the asked one elsewhere. One that opens with a pronoun ("It obtains …", "We use …")
 * refers back, and names in parentheses are references, not subjects.
 */
function aboutAnother(view: QuestionView, tie: ValueTie): boolean {
  const text = tie.sentence.text;
  // Chinese sentences open with their topic as often as their subject, and the dictionary tags role nouns as names.
  if (HAN.test(text) || view.entities.some((entity) => names(text, entity))) return false;
  const open = text.replace(/\([^()]*\)/gu, ' ').replace(/^[^\p{L}\p{N}]+/u, '');
  return view.module.entities(open).some((other) => {
    const at = open.indexOf(other);
    return (
      at >= 0 &&
      at <= SUBJECT_REACH &&
      !other.includes(tie.value) &&
      !tie.value.includes(other) &&
      !view.entities.some((entity) => names(other, entity) || names(entity, other))
    );
  });
}

/** Titles a name may carry or drop ("President Obama" is Barack Obama): no word that tells two people apart. */
const TITLES = new Set(
  'president king queen prince princess sir dr mr mrs ms lord lady general captain senator governor pope saint st professor prof judge emperor empress duke duchess chairman minister'.split(
    ' ',
  ),
);
/** A name's words, split at spaces and hyphens ("Kim Jong-chul" → kim, jong, chul), titles left out. */
const nameWords = (name: string): string[] =>
  name
    .toLowerCase()
    .split(/[\s-]+/u)
    .filter((word) => word && !TITLES.has(word.replace(/\.$/u, '')));

/**
 * The question's entities a sentence names only by a namesake: a name sharing a word with the entity and adding one of
 * its own ("Kim Jong-il" beside "Kim Jong-chul", "BERT BASE" beside "BERT LARGE"), while the sentence never names
 * the entity itself. A shorter name ("BERT" for "BERT LARGE") may be the entity and is no namesake.
 */
function namesakesIn(view: QuestionView, text: string): string[] {
  if (HAN.test(text)) return [];
  const candidates = view.entities.filter((entity) => nameWords(entity).length > 1 && !names(text, entity));
  if (candidates.length === 0) return [];
  const found = view.module.entities(text);
  return candidates.filter((entity) => {
    const own = new Set(nameWords(entity));
    return found.some((name) => {
      const words = nameWords(name);
      return words.some((word) => own.has(word)) && words.some((word) => !own.has(word));
    });
  });
}
