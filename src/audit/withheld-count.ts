import type { Principal } from '../domain/index.ts';
import { isAdmin } from '../domain/index.ts';
import type { DocumentStore } from '../store/store.ts';
import { analyzeQueryOccurrences } from '../text/analyzer.ts';

/** Reads every document, for this count only: what it finds leaves as a number, into the admins' audit log. */
const UNRESTRICTED: Principal = { id: 'evident:audit', groups: [], roles: ['admin'] };

/**
 * How many documents permissions withheld from `principal` for `query`: of the documents of the top `topK` chunks that
 * BM25 ranks for the query over ALL documents, the number the principal may not read. A count, never which.
 *
 * Cheap by design: one BM25 query (the keyword channel alone, whatever channels the search used) and two reads of at
 * most `topK` chunks by id (one unrestricted, one as the principal, whose ACL filter the store applies as always).
 * An admin reads everything: 0 without a query.
 */
export async function countWithheld(
  store: Pick<DocumentStore, 'keywordSearch' | 'getChunks'>,
  query: string,
  principal: Principal,
  topK: number,
): Promise<number> {
  if (isAdmin(principal)) return 0;
  const terms = analyzeQueryOccurrences(query);
  if (terms.length === 0) return 0;
  const hits = await store.keywordSearch(terms, UNRESTRICTED, topK);
  if (hits.length === 0) return 0;
  const ids = hits.map((hit) => hit.chunkId);
  const [all, readable] = await Promise.all([store.getChunks(ids, UNRESTRICTED), store.getChunks(ids, principal)]);
  const readableDocs = new Set(readable.map((chunk) => chunk.docId));
  return new Set(all.map((chunk) => chunk.docId).filter((docId) => !readableDocs.has(docId))).size;
}
