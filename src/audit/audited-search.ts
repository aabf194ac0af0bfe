import type { Principal } from '../domain/index.ts';
import type { RetrievalSettings } from '../config/index.ts';
import type { HybridSearch, SearchOptions, SearchTrace } from '../retrieval/hybrid-search.ts';
import type { AuditSurface } from '../store/store.ts';
import type { AuditRecorder } from './audit-recorder.ts';

/** What an audited search uses of the composition root (an `Evident` is one). */
export interface AuditedSearchServices {
  readonly search: Pick<HybridSearch, 'search'>;
  readonly retrieval: Pick<RetrievalSettings, 'topK'>;
  readonly audit: Pick<AuditRecorder, 'search'>;
}

export interface AuditedSearchInput {
  query: string;
  principal: Principal;
  options?: SearchOptions;
  surface: AuditSurface;
}

/**
 * Hybrid search as `principal`, recorded in the audit log before the results are handed back: every front end (HTTP,
 * CLI, MCP, the framework adapters) searches through this one function. Fails closed: when the audit entry cannot be
 * written the search fails with the store's error and no result leaves, so nothing is served unaudited. The entry
 * itself never reaches the searcher.
 */
export async function auditedSearch(evident: AuditedSearchServices, input: AuditedSearchInput): Promise<SearchTrace> {
  const options = input.options ?? {};
  const trace = await evident.search.search(input.query, input.principal, options);
  await evident.audit.search({
    principal: input.principal,
    query: input.query,
    surface: input.surface,
    returnedDocIds: [...new Set(trace.results.map((result) => result.chunk.docId))],
    topK: options.topK ?? evident.retrieval.topK,
  });
  return trace;
}
