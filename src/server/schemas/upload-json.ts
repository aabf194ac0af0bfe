import { z } from 'zod';

/** `added` and `updated` are one thing to an uploader: the document is now searchable in its new version. */
export const uploadStatus = z.enum(['ingested', 'unchanged', 'failed']);
export type UploadStatus = z.infer<typeof uploadStatus>;

export const uploadedDocumentJson = z
  .object({
    doc_id: z.string(),
    status: uploadStatus,
    chunks: z.number().int().nonnegative(),
    figures: z
      .object({ described: z.number().int().nonnegative(), not_described: z.number().int().nonnegative() })
      .strict()
      .optional()
      .describe('Present when the file captions figures: how many the vision model described, how many it did not.'),
    error: z.object({ code: z.string(), message: z.string(), hint: z.string().nullable() }).strict().optional(),
  })
  .strict();
export type UploadedDocumentJson = z.infer<typeof uploadedDocumentJson>;

/** The answer to an upload: one entry per file, in upload order, and the counts. */
export const uploadSummaryJson = z
  .object({
    documents: z.array(uploadedDocumentJson),
    ingested: z.number().int().nonnegative(),
    unchanged: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  })
  .strict();
export type UploadSummaryJson = z.infer<typeof uploadSummaryJson>;

/** The data of an `event: progress` of an upload stream, sent as each file completes. */
export const uploadProgressJson = z
  .object({
    files_done: z.number().int().nonnegative(),
    files_total: z.number().int().nonnegative(),
    chunks: z.number().int().nonnegative(),
    last: z.object({ doc_id: z.string(), status: uploadStatus }).strict(),
  })
  .strict();
export type UploadProgressJson = z.infer<typeof uploadProgressJson>;
