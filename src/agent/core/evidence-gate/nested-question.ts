import type { Evidence } from '../../../domain/evidence.ts';
import { resolveFromEvidence } from '../../offline-qa/bridge-chain.ts';
import { hopTarget, type BridgeCandidate } from '../../offline-qa/bridge-entities.ts';
import { moduleFor } from '../../../text/languages.ts';
import { decomposeHops } from '../../offline-qa/decompose-offline-hops.ts';
import { hopQuestion } from '../../offline-qa/hop-question.ts';
import { splitContext } from '../../offline-qa/reader-question.ts';
import { names } from './cited-reading.ts';
import { PERSON_NOUNS, PLACE_NOUNS } from './entity-nouns.ts';
import { questionView } from './question-view.ts';
import { chunkText } from './entity-ties.ts';

/**
 * Whether a bridge is of the kind its hop asks. A place ("the country …", "the birthplace of …") must be one the
 * language module reads as a place in the bridge's sentence: "Tai Chi-t'ao", an alias, is no country, and Francis
 * Magalona no birthplace. A person ("the director of …") must not be read as a place; the module knows too few names
 * to ask that it be read as a person ("Aldo Venn"). A hop asking another noun takes any name.
 */
function ofAskedKind(candidate: BridgeCandidate, hop: string): boolean {
  const target = hopTarget(hop);
  const person = target !== undefined && PERSON_NOUNS.has(target);
  if (!person && !(target !== undefined && PLACE_NOUNS.has(target))) return true;
  const name = candidate.text.toLowerCase();
  const place = moduleFor(candidate.sentence)
    .spans(candidate.sentence, 'place')
    .some((span) => span.text.toLowerCase().includes(name) || name.includes(span.text.toLowerCase()));
  return person ? !place : place;
}

/** A nested question read through the evidence an answer cites: the question its value answers, or the unlinked hop. */
export type NestedReading = { resolved: string } | { unlinked: string };

/**
 * "Who is the spouse of the director of Jump for Glory?" asks about a thing the question only describes: the answer's
 * value is about the director, whom the cited evidence must name in a sentence that links it to the film, and the
 * value must answer "Who is the spouse of Raoul Walsh?". Each hop's answer (its bridge) is read from the cited
 * evidence — the first from a passage naming what the question names, a later one only from a sentence that names
 * the one before (offline-qa/bridge-chain.ts), each of the kind its hop asks; a value about
 * the film itself or about the director (its first hop's answer) answers another question. Undefined for a question
 * that nests nothing.
 */
export function readNested(question: string, cited: readonly Evidence[]): NestedReading | undefined {
  if (splitContext(question).context) return undefined;
  const hops = decomposeHops(question);
  if (hops.length < 2) return undefined;
  const resolution = resolveFromEvidence(question, hops, cited, ofAskedKind);
  if (resolution.hop < hops.length - 1) return { unlinked: hopQuestion(resolution.query) };
  // The first bridge is read from a passage about what the question names, not from any sentence with the hop's words.
  const first = cited.find((chunk) => chunk.chunk_id === resolution.bridges[0]?.chunk_id);
  const about = first ? chunkText(first) : '';
  const firstHop = hopQuestion(hops[0] as string);
  if (!questionView(firstHop).entities.every((entity) => names(about, entity))) return { unlinked: firstHop };
  return { resolved: resolution.query };
}
