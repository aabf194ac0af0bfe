import { analyzeForIndex, analyzeQuery } from '../../text/analyzer.ts';
import { identifiersIn } from '../../text/identifiers.ts';
import type { QuestionFocus } from '../../text/language.ts';

/** How the reader takes a need apart before it reads the evidence: what it asks, its context, its identifiers. */

/**
 * A follow-up the offline rewrite made standalone carries the earlier question as `(context: …)`: it says what the
 * follow-up is about, but the follow-up's own words say what it asks.
 */
const CONTEXT = /\s*\(context:\s*(.+)\)\s*$/su;
/** How much the context's terms count beside the asked part's. */
export const CONTEXT_WEIGHT = 0.4;

/** The asked part of a need and the context the rewrite attached, if any. */
export function splitContext(need: string): { asked: string; context: string } {
  const match = CONTEXT.exec(need);
  return match
    ? { asked: need.slice(0, match.index).trim(), context: match[1] as string }
    : { asked: need, context: '' };
}

/**
 * Identifiers are matched whole whatever a language module's segmenter made of them (a Chinese segmenter may cut
 * `CT-2024-0201` at a hyphen): the question's identifiers are its entities, and key terms are only terms the
 * analyzer itself gives for the question, so they can match the index's terms.
 */
export function withIdentifiers(question: string, focus: QuestionFocus): QuestionFocus {
  const ids = identifiersIn(question);
  const analysed = new Set([...analyzeQuery(question), ...analyzeForIndex(question).split(' ')]);
  // An identifier counts once, as its compound term: its parts (`ct`, `2023`) would let a passage about another
  // contract of the same year cover half the question.
  const idTerms = ids.map((id) => analyzeQuery(id)[0]).filter((term): term is string => term !== undefined);
  const idParts = new Set(ids.flatMap((id) => analyzeQuery(id).slice(1)));
  const entities = [
    ...new Set([
      ...ids,
      ...focus.entities.filter(
        (entity) => !ids.some((id) => id !== entity.toUpperCase() && id.startsWith(entity.toUpperCase())),
      ),
    ]),
  ];
  const key_terms = [
    ...new Set([...focus.key_terms.filter((term) => analysed.has(term) && !idParts.has(term)), ...idTerms]),
  ];
  return { ...focus, entities, key_terms };
}
