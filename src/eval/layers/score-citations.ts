import { checkCitations, type Citation } from '../../domain/answer.ts';
import type { TraceEvidence } from '../../runs/run-trace.ts';
import { notExposed, passOrFail, type LayerResult } from './layer-result.ts';
import { quoteList } from './score-rewrite.ts';

/**
 * Validity: every citation names a chunk the run kept as evidence (with that chunk's doc) and its quote occurs in the
 * chunk's text. Recall: the share of `cite_docs` some citation names. Scored when the answer cites anything or the
 * case expects citations; it passes when every citation is valid and every expected doc is cited.
 */
export function scoreCitations(
  citeDocs: readonly string[] | undefined,
  citations: readonly Citation[] | null,
  evidence: readonly TraceEvidence[] | null,
): LayerResult {
  const cited = citations ?? [];
  if (!citeDocs?.length && cited.length === 0) return { status: 'n/a', detail: 'no citations expected or given' };
  if (evidence === null) return notExposed;
  const { dropped } = checkCitations(
    { answer: '', answerable: true, confidence: 0, citations: [...cited], missing_information: [] },
    evidence.map((item) => ({ chunkId: item.chunk_id, docId: item.doc_id, text: item.text })),
  );
  const validity = cited.length === 0 ? 1 : (cited.length - dropped.length) / cited.length;
  const citedDocs = new Set(cited.map((citation) => citation.doc_id));
  const uncited = (citeDocs ?? []).filter((doc) => !citedDocs.has(doc));
  const recall = citeDocs?.length ? (citeDocs.length - uncited.length) / citeDocs.length : undefined;
  const problems = [
    ...dropped.map(({ citation, reason }) => `${citation.chunk_id}: ${reason.replaceAll('_', ' ')}`),
    ...(uncited.length ? [`not cited: ${quoteList(uncited)}`] : []),
  ];
  return passOrFail(problems.length === 0, problems.length ? problems.join('; ') : `${cited.length} valid`, {
    validity,
    ...(recall === undefined ? {} : { recall }),
  });
}
