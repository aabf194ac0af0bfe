import { z } from 'zod';
import type { DocumentRecord } from '../../domain/index.ts';

/** A document as `GET /v1/documents` lists it. */
export const documentJson = z
  .object({
    doc_id: z.string(),
    title: z.string(),
    type: z.string(),
    source: z.string(),
    acl: z.array(z.string()).describe('Who may see it (`group:<name>`, `user:<name>`); empty means everyone.'),
    tags: z.array(z.string()),
    metadata: z
      .record(z.string(), z.string())
      .describe(
        "What the file states about itself beyond its title: an e-mail's from, to, cc, date, subject, message_id, in_reply_to, references, and thread (the id of the message that started its thread); {} when nothing.",
      ),
    parent: z
      .string()
      .nullable()
      .describe(
        "The doc_id of the document this one was found inside (an e-mail's attachment: the message's), or null.",
      ),
    chunks: z.number().int().nonnegative(),
    pages: z.number().int().nonnegative().nullable(),
    bytes: z.number().int().nonnegative(),
    updated_at: z.string().describe('When this version was ingested (ISO 8601).'),
  })
  .strict();
export type DocumentJson = z.infer<typeof documentJson>;

export const toDocumentJson = (doc: DocumentRecord): DocumentJson => ({
  doc_id: doc.docId,
  title: doc.title,
  type: doc.type,
  source: doc.source,
  acl: doc.acl,
  tags: doc.tags,
  metadata: doc.metadata ?? {},
  parent: doc.parent ?? null,
  chunks: doc.chunkCount,
  pages: doc.pageCount ?? null,
  bytes: doc.bytes,
  updated_at: doc.ingestedAt,
});
