import { describeMissing, missingFromVerdict } from '../information-need.ts';
import type { Answerability, Evidence } from '../state.ts';
import { answerKind, cjkShare, contentTerms, hasValueOfKind, identifiersIn, sentences, termSet } from '../../../text/text-heuristics.ts';

/** Share of the question's content terms a chunk (with its title and headings) must contain to be about it. */
const MIN_COVERAGE = 0.75;
/**
 * The same for a question written in CJK: its terms are character bigrams, and the particles and question words
 * inside them ("有几", "是多") never occur in the answer, so a lower share already means the chunk is about it.
 */
const MIN_COVERAGE_CJK = 0.35;
const SENTENCES_PER_NEED = 2;

/**
 * Offline sufficiency test, per sub-question: a chunk must be about the question (it states every identifier the
 * question names and covers most of its terms), and one of its sentences must hold a value of the kind asked for
 * (an amount for a fee or price, a duration for a notice period…) next to the question's own words. Evidence that
 * merely mentions "pricing" without a price is related, not sufficient.
 */
export function judgeOffline(subQuestions: readonly string[], evidence: readonly Evidence[]): Answerability {
  const support: Answerability['support'] = [];
  const reasons: string[] = [];
  const missing: string[] = [];
  for (const query of subQuestions) {
    const terms = contentTerms(query);
    const ids = identifiersIn(query);
    const needTerms = terms.filter((term) => !ids.some((id) => id.toLowerCase() === term));
    const kind = answerKind(query);
    const cjk = cjkShare(terms) > 0.5;
    const minCoverage = cjk ? MIN_COVERAGE_CJK : MIN_COVERAGE;
    const minOverlap = Math.max(1, Math.ceil(needTerms.length * (cjk ? MIN_COVERAGE_CJK : 0.5)));
    let best: { score: number; chunk: Evidence; sentences: string[] } | undefined;
    let related = 0;
    let identifiersFound = false;
    for (const chunk of evidence) {
      const about = `${chunk.title} ${chunk.heading} ${chunk.doc_id}`;
      const context = termSet(`${about} ${chunk.text}`);
      const stated = new Set(identifiersIn(`${about} ${chunk.text}`));
      if (!ids.every((id) => stated.has(id))) continue;
      identifiersFound = true;
      const coverage = terms.length === 0 ? 0 : terms.filter((term) => context.has(term)).length / terms.length;
      if (coverage < minCoverage) continue;
      related++;
      const chunkHeadingTerms = termSet(chunk.heading);
      const scored = sentences(chunk.text)
        .map(({ text: sentence, heading }) => {
          const words = termSet(sentence);
          // A sentence's own section heading ("## Pricing") names its topic; the chunk's first heading is the fallback.
          const headingTerms = heading ? termSet(heading) : chunkHeadingTerms;
          const overlap = needTerms.filter((term) => words.has(term) || headingTerms.has(term)).length;
          return { sentence, overlap, inSentence: needTerms.filter((term) => words.has(term)).length };
        })
        .filter((s) => s.overlap >= minOverlap && hasValueOfKind(s.sentence, kind))
        .sort((a, b) => b.inSentence - a.inSentence || b.overlap - a.overlap);
      const top = scored[0];
      if (!top) continue;
      const score = top.inSentence * 2 + top.overlap + coverage;
      if (!best || score > best.score) best = { score, chunk, sentences: scored.slice(0, SENTENCES_PER_NEED).map((s) => s.sentence) };
    }
    if (best) {
      for (const sentence of best.sentences) support.push({ query, chunk_id: best.chunk.chunk_id, sentence });
      reasons.push(`"${query}": ${best.chunk.chunk_id} states ${kind === 'any' ? 'it' : `the ${kind}`}`);
    } else {
      missing.push(describeMissing({ question: query, identifiers: ids, identifiersFound, related, evidence: evidence.length, kind }));
      reasons.push(
        related > 0
          ? `"${query}": ${related} related chunk${related === 1 ? '' : 's'}, none states ${kind === 'any' ? 'an answer' : `the ${kind}`}`
          : identifiersFound
            ? `"${query}": the chunks that mention ${ids.join(', ')} are not about it`
            : `"${query}": no retrieved chunk is about it${ids.length ? ` (${ids.join(', ')})` : ''}`,
      );
    }
  }
  return { answerable: support.length > 0, sufficiency: support.length > 0 ? 1 : 0, reasons, missing_information: missing, support };
}
