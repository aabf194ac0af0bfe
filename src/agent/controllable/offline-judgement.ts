import { normalizeForQuote } from '../../domain/answer.ts';
import type { Evidence } from '../../domain/evidence.ts';
import { judgeOffline } from '../offline-qa/judge-offline.ts';
import { contentTerms, identifiersIn, sentences, termSet } from '../../text/text-heuristics.ts';
import type { ContextItem, Support } from './controllable-state.ts';
import { findEntitiesOffline } from './entities.ts';
import { ANSWER_TASK_PREFIX } from './offline-plan.ts';

/** Share of a query's terms an item must contain to be kept, and to count as relevant. */
export const KEEP_COVERAGE = 0.25;
export const RELEVANT_COVERAGE = 0.5;

/** The query's content terms, without the answer-task wording. */
export const queryTerms = (query: string): string[] => contentTerms(query.replace(ANSWER_TASK_PREFIX, ''));

/** Share of the query's terms the text contains (0 for a query without terms). */
export function coverage(query: string, text: string): number {
  const terms = queryTerms(query);
  if (terms.length === 0) return 0;
  const have = termSet(text);
  return terms.filter((term) => have.has(term)).length / terms.length;
}

export const itemCoverage = (query: string, item: ContextItem): number =>
  coverage(query, `${item.title}\n${item.text}`);

/** Offline: the items that name every identifier of the query and share enough of its terms (title included). */
export function keepRelevantOffline(query: string, items: readonly ContextItem[]): ContextItem[] {
  const ids = identifiersIn(query);
  return items.filter((item) => {
    const stated = new Set(identifiersIn(`${item.doc_id} ${item.title} ${item.text}`));
    return ids.every((id) => stated.has(id)) && itemCoverage(query, item) >= KEEP_COVERAGE;
  });
}

/**
 * Whether a chunk (with its title and heading) names every entity the question names: a passage about another
 * person or place does not answer, however many other words it shares.
 */
export function namesAll(question: string, chunk: Evidence): boolean {
  const have = termSet(`${chunk.title} ${chunk.heading} ${chunk.text}`);
  return findEntitiesOffline(question).every((entity) => {
    const words = contentTerms(entity.text);
    // Most of a long name (titles get shortened), all of a short one ("McDowell County" is not any county).
    return words.filter((word) => have.has(word)).length >= Math.ceil(words.length * (words.length > 3 ? 2 / 3 : 1));
  });
}

/** Items a task's answer can quote directly: summaries and quotes, best first, up to this many. */
const DIRECT_ITEMS = 3;

/** The items' sentences, each tied to an evidence chunk that contains it verbatim (others cannot be cited). */
function verbatimSupport(items: readonly ContextItem[], evidence: readonly Evidence[]): Support[] {
  const chunks = evidence.map((chunk) => ({ id: chunk.chunk_id, text: normalizeForQuote(chunk.text) }));
  const out: Support[] = [];
  for (const item of items.slice(0, DIRECT_ITEMS)) {
    for (const { text } of sentences(item.text)) {
      const chunk = chunks.find(
        (candidate) => item.chunk_ids.includes(candidate.id) && candidate.text.includes(normalizeForQuote(text)),
      );
      if (chunk && !out.some((known) => known.sentence === text)) out.push({ chunk_id: chunk.id, sentence: text });
    }
  }
  return out;
}

/**
 * Offline answer to one task, verbatim so each sentence is grounded and citable: for an overview or someone's
 * words, the kept summaries' or quotes' own sentences; otherwise the sentences `rag`'s offline answerability test
 * finds (a chunk about the task, naming its identifiers, with a value of the kind asked for). An answer task that
 * finds nothing of its own rests on the last answered step, whose answer completes the plan's chain of hops.
 */
export function answerOffline(
  query: string,
  items: readonly ContextItem[],
  evidence: readonly Evidence[],
  previous: readonly Support[] = [],
): Support[] {
  const question = query.replace(ANSWER_TASK_PREFIX, '').trim();
  const direct = items.filter((item) => item.kind !== 'chunk');
  if (direct.length > 0 && direct[0] === items[0]) {
    const support = verbatimSupport(direct, evidence);
    if (support.length > 0) return support;
  }
  const judged = judgeOffline(
    [question],
    evidence.filter((chunk) => namesAll(question, chunk)),
  ).support.map(({ chunk_id, sentence }) => ({ chunk_id, sentence }));
  return judged.length > 0 ? judged : [...previous];
}

/** Offline groundedness: every sentence of the answer occurs verbatim in the evidence chunk it names. */
export function groundedOffline(support: readonly Support[], evidence: readonly Evidence[]): boolean {
  if (support.length === 0) return false;
  const texts = new Map(evidence.map((item) => [item.chunk_id, normalizeForQuote(item.text)]));
  return support.every(({ chunk_id, sentence }) => texts.get(chunk_id)?.includes(normalizeForQuote(sentence)) ?? false);
}
