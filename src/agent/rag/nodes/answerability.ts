import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { generateStructured } from '../../../models/chat/structured-output.ts';
import { describeMissing, missingFromVerdict } from '../../core/information-need.ts';
import type { Answerability, Evidence } from '../../core/state.ts';
import { answerKind, cjkShare, contentTerms, hasValueOfKind, identifiersIn, sentences, termSet } from '../../../text/text-heuristics.ts';
import { formatEvidence } from '../../core/llm-prompts.ts';
import type { RagNode } from '../rag-deps.ts';

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
  return { answerable: support.length > 0, reasons, missing_information: missing, support };
}

const verdictSchema = z.object({
  answerable: z.boolean(),
  reasons: z.array(z.string()),
  missing_information: z.array(z.string()),
});

/** Is the evidence sufficient to answer (not merely related)? No evidence is insufficient without asking a model. */
export const answerability: RagNode = async (state, deps) => {
  const queries = state.sub_questions.length > 0 ? state.sub_questions : [state.standalone_question || state.question];
  let verdict: Answerability;
  if (state.evidence.length === 0) {
    const missing = queries.map((q) => describeMissing({ question: q, identifiers: [], identifiersFound: false, related: 0, evidence: 0, kind: 'any' }));
    verdict = { answerable: false, reasons: ['no evidence retrieved'], missing_information: missing, support: [] };
  } else if (deps.chat) {
    const result = await generateStructured({
      model: deps.chat.model,
      schema: verdictSchema,
      name: 'answerability',
      maxRetries: deps.maxSchemaRetries,
      messages: [
        new SystemMessage(
          'Decide whether the evidence is SUFFICIENT to answer the question: it must state the answer, not merely mention the topic. ' +
            'In reasons, say what the evidence does state. In missing_information, name each missing fact as a noun phrase with what the ' +
            'evidence shows instead, e.g. "the termination fee of CT-2023-0077 (the evidence mentions CT-2023-0077 but states no termination fee)"; never repeat the question.',
        ),
        new HumanMessage(`Question: ${state.standalone_question || state.question}\n\nEvidence:\n${formatEvidence(state.evidence)}`),
      ],
    });
    verdict = { ...result, missing_information: missingFromVerdict(state.standalone_question || state.question, result), support: [] };
  } else {
    verdict = judgeOffline(queries, state.evidence);
  }
  return {
    update: { answerability: verdict },
    summary: `${verdict.answerable ? 'sufficient' : 'insufficient'}: ${verdict.reasons.join('; ')}`,
  };
};
