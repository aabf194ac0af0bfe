import type { Reading } from './reader.ts';
import type { AttributeReading } from './sufficiency-attribute.ts';

/**
 * The few measurements the sufficiency model weighs, per need. Each is in 0..1 and each says something a reader
 * would check before answering: is one sentence about the need, is one passage, is all the evidence together,
 * does the passage name what the question names, is a value of the asked kind stated next to the question's words,
 * do other passages agree, and is the best passage among the first retrieved. The attribute measurements
 * (sufficiency-attribute.ts) tell a passage that states the asked thing from one that only mentions the topic: is
 * the asked attribute (the question's words beyond its entities) stated in one clause, in a passage naming the
 * entities, next to a value of the asked kind, and how much better is that clause than the next sentence's.
 */
export const FEATURE_NAMES = [
  'sentence_coverage',
  'chunk_coverage',
  'union_coverage',
  'chunk_complete',
  'specific_stated',
  'entity_coverage',
  'typed',
  'typed_span',
  'span_agreement',
  'agreement',
  'rank_prior',
  'cjk',
  'attribute_coverage',
  'attribute_complete',
  'attribute_with_entity',
  'typed_near_attribute',
  'key_share',
  'asked_union',
  'margin',
  'head_stated',
  'head_value',
  'topic_only',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

/** What every language's reader measures alike (the language-neutral model weighs these). */
export const NEUTRAL_FEATURES: readonly FeatureName[] = FEATURE_NAMES.slice(0, FEATURE_NAMES.indexOf('cjk') + 1);
/** What the English model weighs: the neutral measurements and the attribute and head ones (cjk is always 0). */
export const ENGLISH_FEATURES: readonly FeatureName[] = FEATURE_NAMES.filter((name) => name !== 'cjk');
export type Features = Record<FeatureName, number>;

/**
 * Answer types whose span is a value or a name: their presence near the focus is evidence. A yes/no, list or
 * definition "span" (a polarity word, an enumeration, a copula's complement) occurs in most sentences alike.
 */
const VALUE_TYPES = new Set(['number', 'amount', 'date', 'duration', 'person', 'organization', 'place']);

export function featuresOf(reading: Reading, attribute: AttributeReading): Features {
  const best = reading.candidates[0];
  const typed = VALUE_TYPES.has(reading.focus.answer_type);
  return {
    sentence_coverage: best?.coverage ?? 0,
    chunk_coverage: reading.chunkCoverage,
    union_coverage: reading.unionCoverage,
    chunk_complete: reading.chunkComplete ? 1 : 0,
    specific_stated: reading.specificStated ? 1 : 0,
    entity_coverage: reading.entityCoverage,
    typed: typed ? 1 : 0,
    typed_span: typed && reading.candidates.slice(0, 2).some((candidate) => candidate.spans.length > 0) ? 1 : 0,
    span_agreement: Math.min(1, reading.spanAgreeing / 2),
    agreement: Math.min(1, reading.agreeing / 3),
    rank_prior: best ? 1 / (1 + best.rank) : 0,
    cjk: reading.focus.language === 'zh' ? 1 : 0,
    attribute_coverage: attribute.attributeCoverage,
    attribute_complete: attribute.attributeComplete ? 1 : 0,
    attribute_with_entity: attribute.attributeWithEntity,
    typed_near_attribute: attribute.typedNearAttribute ? 1 : 0,
    key_share: attribute.keyShare,
    asked_union: attribute.askedUnion,
    margin: Math.max(0, attribute.margin),
    head_stated: attribute.headStated,
    head_value: attribute.headValue ? 1 : 0,
    // The failure: the passage names what the question names, but not the asked attribute.
    topic_only: attribute.topicOnly,
  };
}

export const featureVector = (features: Features): number[] => FEATURE_NAMES.map((name) => features[name]);
