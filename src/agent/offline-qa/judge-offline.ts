import { describeMissing } from './information-need.ts';
import type { Answerability, Evidence } from '../../domain/evidence.ts';
import { isSufficient } from './sufficiency.ts';
import { read, type Reading } from './reader.ts';
import { readAttribute } from './sufficiency-attribute.ts';
import { featuresOf } from './sufficiency-features.ts';
import { missingAttribute } from './sufficiency-missing.ts';
import { modelFor, sufficiencyOf } from './sufficiency-model.ts';

/** Supporting sentences quoted per answered need. */
const SENTENCES_PER_NEED = 2;

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** The sentences an answer to the need rests on: the best candidate, and the next one when it adds a value. */
function supportOf(reading: Reading): Reading['candidates'] {
  const [best, ...rest] = reading.candidates;
  if (!best) return [];
  const typed = reading.focus.answer_type !== 'any';
  const second = rest.find(
    (candidate) =>
      candidate.sentence !== best.sentence &&
      candidate.coverage >= best.coverage * 0.5 &&
      (!typed || candidate.spans.length > 0),
  );
  return (second ? [best, second] : [best]).slice(0, SENTENCES_PER_NEED);
}

/**
 * Offline sufficiency, per need (sub-question): the reader finds the sentences closest to the need and the
 * answer spans of the asked type in them, the attribute reader whether the asked attribute itself is stated next
 * to the question's entities; the fitted logistic model of the need's language (sufficiency-model.ts) turns what
 * they measured into the probability that the evidence states the answer. A need is answered when that
 * probability is sufficient; the verdict's sufficiency is the best need's (an answer may cover some needs and name
 * the others as missing). Refused needs say what is missing, not the question again.
 */
export function judgeOffline(subQuestions: readonly string[], evidence: readonly Evidence[]): Answerability {
  const support: Answerability['support'] = [];
  const reasons: string[] = [];
  const missing: string[] = [];
  let sufficiency = 0;
  for (const query of subQuestions) {
    const reading = read(query, evidence);
    const attribute = readAttribute(query, evidence, reading.focus.entities, reading.focus.answer_type);
    const probability = sufficiencyOf(featuresOf(reading, attribute), modelFor(reading.focus.language));
    sufficiency = Math.max(sufficiency, probability);
    const best = reading.candidates[0];
    const type = reading.focus.answer_type;
    if (best && isSufficient(probability)) {
      for (const candidate of supportOf(reading))
        support.push({ query, chunk_id: candidate.chunk.chunk_id, sentence: candidate.sentence });
      const stated = best.spans[0]?.text;
      reasons.push(
        `"${query}": ${best.chunk.chunk_id} states ${stated ? `"${stated}"` : type === 'any' ? 'it' : `the ${type}`} (sufficiency ${round(probability)})`,
      );
      continue;
    }
    const related = new Set(
      reading.candidates.filter((candidate) => candidate.coverage >= 0.5).map((candidate) => candidate.chunk.chunk_id),
    ).size;
    const context = {
      question: query,
      identifiers: reading.focus.entities,
      identifiersFound: reading.entitiesFound,
      related,
      evidence: evidence.length,
      kind: type,
    };
    missing.push(missingAttribute(context, attribute) ?? describeMissing(context));
    reasons.push(
      `"${query}": ${related > 0 ? `${related} related chunk${related === 1 ? '' : 's'}, none states ${type === 'any' ? 'an answer' : `the ${type}`}` : 'no retrieved chunk is about it'} (sufficiency ${round(probability)})`,
    );
  }
  // Support only from needs judged sufficient, so answerable agrees with the threshold.
  return {
    answerable: support.length > 0 && isSufficient(sufficiency),
    sufficiency: round(sufficiency),
    reasons,
    missing_information: missing,
    support,
  };
}
