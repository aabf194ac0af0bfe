import { resolveFromEvidence } from '../offline-qa/bridge-chain.ts';
import { decomposeHops } from '../offline-qa/decompose-offline-hops.ts';
import type { Evidence } from '../../domain/evidence.ts';
import { contentTerms, identifiersIn, sentences, termSet } from '../../text/text-heuristics.ts';

/** A run of capitalised words, allowing the small words inside names ("Bank of England", "Leonardo da Vinci"). */
const NAME =
  /\b\p{Lu}[\p{L}\p{N}'’-]*(?:\s+(?:(?:of|the|de|da|du|von|van|der|and|for|&)\s+)?\p{Lu}[\p{L}\p{N}'’-]*)*/gu;
const SENTENCE_START = new Set([
  'The',
  'A',
  'An',
  'It',
  'In',
  'On',
  'At',
  'He',
  'She',
  'They',
  'This',
  'That',
  'Its',
  'His',
  'Her',
  'After',
  'Before',
  'As',
]);
const CHUNKS_READ = 3;
const NAMES_KEPT = 2;

/**
 * The next hop of a multi-hop question, offline. A question the hop decomposer splits ("the president of the society
 * which published X") is resolved through offline-qa/bridge-chain.ts, the step rag and controllable share. Otherwise
 * the evidence sentence closest to the question names an entity the
 * question does not (the bridge: "published by the American Psychological Association"); the follow-up query is that
 * entity plus the question's words the sentence did not cover ("first president"). Undefined when nothing new is named
 * or nothing of the question is left to ask.
 */
export function followUpQuery(question: string, evidence: readonly Evidence[]): string | undefined {
  // A compositional question takes the shared bridge step: the next hop with the bridge the evidence names substituted.
  const hops = decomposeHops(question);
  if (hops.length > 1) {
    const next = resolveFromEvidence(question, hops, evidence.slice(0, CHUNKS_READ + 1));
    return next.bridges.length > 0 ? next.query : undefined;
  }
  return followUpByNames(question, evidence);
}

/** A question that nests nothing: the names its closest evidence sentence adds, plus its words that sentence left uncovered. */
function followUpByNames(question: string, evidence: readonly Evidence[]): string | undefined {
  const asked = termSet(question);
  let best: { text: string; overlap: number } | undefined;
  for (const chunk of evidence.slice(0, CHUNKS_READ)) {
    for (const { text } of sentences(chunk.text)) {
      const overlap = [...termSet(text)].filter((term) => asked.has(term)).length;
      if (overlap > 0 && (!best || overlap > best.overlap)) best = { text, overlap };
    }
  }
  if (!best) return undefined;
  const names = [...new Set((best.text.match(NAME) ?? []).map((name) => name.trim()))]
    .filter((name) => !SENTENCE_START.has(name))
    .filter((name) => contentTerms(name).some((term) => !asked.has(term)))
    .slice(0, NAMES_KEPT);
  if (names.length === 0) return undefined;
  const covered = termSet(best.text);
  const rest = question
    .replace(/[?.!,;:()"]/g, ' ')
    .split(/\s+/)
    .filter((word) => contentTerms(word).some((term) => !covered.has(term)));
  // Nothing of the question left beyond its identifiers: the sentence already covered what is asked, there is no next hop.
  if (!rest.some((word) => identifiersIn(word).length === 0)) return undefined;
  return [...names, ...rest].join(' ').trim();
}
