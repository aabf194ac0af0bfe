import { extname } from 'node:path';
import type { DocumentMetadata, LoadedDocument } from '../domain/index.ts';
import { IngestLimitError, isEvidentError } from '../errors/index.ts';
import { checkDocId } from './doc-id.ts';
import { loaderFor } from './loaders/index.ts';
import type { AttachmentBudget } from './loaders/mail/attachments.ts';
import type { Prepared, SourceItem } from './prepare-document.ts';

/**
 * Messages inside messages that are read: an attachment of a message attached at this depth is skipped with a reason.
 * Forwarded mail nests two or three deep; deeper is a bomb or a loop, not correspondence.
 */
export const MAX_ATTACHMENT_DEPTH = 3;

/** What became of a document's attachments: the written ones, flattened (nested ones included), and the skipped. */
export interface AttachmentResults<W> {
  written: W[];
  skipped: { name: string; reason: string }[];
}

/** The version of one attachment (with its own nested attachments), made as any document's is. */
export type MakeVersion<W> = (item: SourceItem, budget: AttachmentBudget) => Promise<{ write: W; nested: W[] }>;

/**
 * Makes a document of each attachment `doc` carries, under `doc`'s ACL, with doc_id `<carrier doc_id>/<name>`. The
 * attachments of the whole tree count towards one `budget` (`ingest.maxArchiveEntries` files,
 * `ingest.maxExpandedBytes` decoded): over it the file ingested fails. An attachment that cannot be read (an
 * unreadable PDF, a bomb of its own, a name too long for a doc_id) is skipped with the reason, as is one nested past
 * `MAX_ATTACHMENT_DEPTH`: the message stays readable without it.
 */
export async function attachmentVersions<W>(
  doc: Prepared,
  depth: number,
  budget: AttachmentBudget,
  make: MakeVersion<W>,
): Promise<AttachmentResults<W>> {
  const { loaded } = doc;
  const results: AttachmentResults<W> = { written: [], skipped: [...(loaded.skippedAttachments ?? [])] };
  for (const attachment of loaded.attachments ?? []) {
    budget.take(attachment.bytes.byteLength);
    if (depth >= MAX_ATTACHMENT_DEPTH) {
      results.skipped.push({ name: attachment.name, reason: `nested more than ${MAX_ATTACHMENT_DEPTH} messages deep` });
      continue;
    }
    if (!loaderFor(attachment.name)) {
      const type = extname(attachment.name) || 'without an extension';
      results.skipped.push({ name: attachment.name, reason: `unsupported file type (${type})` });
      continue;
    }
    const docId = `${doc.docId}/${attachment.name}`;
    const item: SourceItem = {
      kind: 'attachment',
      attachment: {
        ...attachment,
        root: doc.parent ?? doc.docId,
        source: doc.source,
        acl: doc.acl,
        depth: depth + 1,
        keepOriginal: doc.original !== undefined,
      },
      path: `${doc.path}/${attachment.name}`,
      docId,
    };
    try {
      checkDocId(docId);
      const { write, nested } = await make(item, budget);
      results.written.push(write, ...nested);
    } catch (error) {
      // The tree's own budget fails the file; anything else fails only this attachment.
      if (IngestLimitError.isInstance(error) && budget.raised(error)) throw error;
      results.skipped.push({ name: attachment.name, reason: isEvidentError(error) ? error.message : String(error) });
    }
  }
  return results;
}

/** The metadata of a document with attachments: what its loader found, plus which were read and which skipped. */
export function withAttachmentMetadata(
  loaded: LoadedDocument,
  written: readonly string[],
  skipped: readonly { name: string; reason: string }[],
): DocumentMetadata | undefined {
  const metadata: DocumentMetadata = { ...loaded.metadata };
  if (written.length > 0) metadata.attachments = written.join('; ');
  if (skipped.length > 0) metadata.skipped_attachments = skipped.map((s) => `${s.name}: ${s.reason}`).join('; ');
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}
