import { normalizeForQuote, type Answer, type Citation } from '../../domain/answer.ts';
import type { Evidence } from '../../domain/evidence.ts';

/** A sentence a model extracted from the evidence, named by the id of the chunk it says it came from. */
export interface ExtractedSentence {
  chunk_id: string;
  sentence: string;
}

/** What became of a model's references to the evidence: the ones that hold (some re-pointed), and the ones that do not. */
export interface Grounded<T> {
  kept: T[];
  /** Re-pointed to the chunk that really contains the quote (the model named an unknown or wrong id). */
  repaired: number;
  dropped: T[];
}

/** A quote long enough to identify its chunk by itself (a CJK character carries about as much as a short word). */
const DISTINCTIVE_WEIGHT = 16;
const weight = (text: string): number =>
  [...text].reduce(
    (sum, char) =>
      sum + (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(char) ? 3 : 1),
    0,
  );

/**
 * Finds the evidence chunk whose text contains `quote` (normalised as the citation check does): the named chunk
 * first, then a chunk of the named document, then any. Models mangle long ids (drop a prefix, swap the `#n`, cite the
 * document), but a verbatim quote identifies its chunk; a quote found nowhere identifies nothing, and a short one
 * ("the fee") found elsewhere identifies nothing either, so it is never moved to another chunk.
 */
export function chunkContaining(
  evidence: readonly Evidence[],
  quote: string,
  named?: { chunk_id?: string; doc_id?: string },
): Evidence | undefined {
  const wanted = normalizeForQuote(quote);
  if (!wanted) return undefined;
  const holds = (item: Evidence) => normalizeForQuote(item.text).includes(wanted);
  const exact = evidence.find((item) => item.chunk_id === named?.chunk_id);
  if (exact && holds(exact)) return exact;
  if (weight(wanted) < DISTINCTIVE_WEIGHT) return undefined;
  const docId = named?.doc_id ?? exact?.doc_id;
  return evidence.find((item) => item.doc_id === docId && holds(item)) ?? evidence.find(holds);
}

/**
 * Keeps the extracted sentences that occur in the evidence, each under the chunk that contains it (re-pointed when the
 * model named another id); sentences found in no chunk are dropped, and each kept one appears once.
 */
export function groundExtracted(
  items: readonly ExtractedSentence[],
  evidence: readonly Evidence[],
): Grounded<ExtractedSentence> {
  const kept: ExtractedSentence[] = [];
  const dropped: ExtractedSentence[] = [];
  const seen = new Set<string>();
  let repaired = 0;
  for (const item of items) {
    const chunk = chunkContaining(evidence, item.sentence, { chunk_id: item.chunk_id });
    if (!chunk) {
      dropped.push(item);
      continue;
    }
    const key = `${chunk.chunk_id}\u0000${normalizeForQuote(item.sentence)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (chunk.chunk_id !== item.chunk_id) repaired++;
    kept.push({ chunk_id: chunk.chunk_id, sentence: item.sentence.trim() });
  }
  return { kept, repaired, dropped };
}

/**
 * Re-points each citation whose quote is not in the chunk it names (an unknown id, another document's id, or the wrong
 * chunk of the right one) to the evidence chunk that contains the quote, taking that chunk's document, source and page.
 * A citation whose quote occurs in no evidence is left as the model wrote it: the citation check drops it and tells
 * the model why on its retry.
 */
export function repairCitations(answer: Answer, evidence: readonly Evidence[]): { answer: Answer; repaired: number } {
  let repaired = 0;
  const citations = answer.citations.map((citation): Citation => {
    const chunk = chunkContaining(evidence, citation.quote, citation);
    if (!chunk) return citation;
    const same = chunk.chunk_id === citation.chunk_id && chunk.doc_id === citation.doc_id;
    if (!same) repaired++;
    return {
      chunk_id: chunk.chunk_id,
      doc_id: chunk.doc_id,
      source: chunk.source,
      ...(chunk.page === undefined ? {} : { page: chunk.page }),
      quote: citation.quote,
    };
  });
  return { answer: { ...answer, citations }, repaired };
}
