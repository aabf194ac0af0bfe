import { z } from 'zod';
import { checkIdentifier, type DocumentRecord, type Principal } from '../domain/index.ts';
import { ValidationError } from '../errors/index.ts';
import type { DocumentStore } from '../store/store.ts';

/** A page of a document listing: 200 documents unless asked, at most 1,000 (a listing is never unbounded). */
export const DOCUMENT_PAGE_DEFAULT = 200;
export const DOCUMENT_PAGE_MAX = 1_000;

export const documentPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(DOCUMENT_PAGE_MAX).optional(),
  cursor: z.string().optional(),
  thread: z.string().optional(),
});

/**
 * One page of the documents the principal may read, by doc_id, and the cursor of the next page (the last doc_id of
 * this one) or null at the end: keyset paging, stable while documents are added. `thread` keeps the e-mails of one
 * thread (their `metadata.thread`).
 */
export async function documentPage(
  store: Pick<DocumentStore, 'listDocuments'>,
  principal: Principal,
  query: { limit?: number | string | undefined; cursor?: string | undefined; thread?: string | undefined },
): Promise<{ documents: DocumentRecord[]; nextCursor: string | null }> {
  const parsed = documentPageQuery.safeParse(query);
  if (!parsed.success)
    throw new ValidationError(`limit must be a whole number from 1 to ${DOCUMENT_PAGE_MAX}.`, {
      hint: 'Omit it for pages of 200, and pass next_cursor as cursor for the next page.',
    });
  const { limit = DOCUMENT_PAGE_DEFAULT, cursor, thread } = parsed.data;
  if (cursor !== undefined) checkIdentifier('cursor', cursor);
  if (thread !== undefined) checkIdentifier('thread', thread);
  const found = await store.listDocuments(principal, {
    ...(cursor !== undefined ? { after: cursor } : {}),
    limit: limit + 1,
    ...(thread !== undefined ? { metadata: { thread } } : {}),
  });
  const documents = found.slice(0, limit);
  return { documents, nextCursor: found.length > limit ? (documents.at(-1)?.docId ?? null) : null };
}
