import { basename } from 'node:path';
import type { LoadedDocument } from '../../../domain/index.ts';
import { IngestError } from '../../../errors/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../../limits.ts';
import type { Loader } from '../loader.ts';
import { AttachmentBudget, sortAttachments, type SortedAttachments } from './attachments.ts';
import { bodyBlocks, headerBlock, messageMetadata, type MailMessage } from './mail-message.ts';
import { parseMime } from './parse-mime.ts';

/** `.eml`: one RFC 822 message — its headers as metadata and as a searchable first block, its body, its attachments. */
export const emlLoader: Loader = {
  type: 'email',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const name = basename(path);
    let message: MailMessage | undefined;
    try {
      message = await parseMime(bytes);
    } catch (cause) {
      throw notAMessage(name, path, cause);
    }
    if (!message) throw notAMessage(name, path);
    return messageDocument(message, name, limits);
  },
};

/** A message as a document: title = Subject, the header block, the body; attachments counted and sorted. */
export function messageDocument(message: MailMessage, name: string, limits: IngestLimits): LoadedDocument {
  const sorted: SortedAttachments = { attachments: [], skipped: [] };
  sortAttachments(message.attachments, new AttachmentBudget(name, limits), sorted);
  const header = headerBlock(message.headers);
  const { subject } = message.headers;
  return {
    ...(subject ? { title: subject } : {}),
    blocks: [...(header ? [header] : []), ...bodyBlocks(message, name, limits)],
    metadata: messageMetadata(message.headers),
    attachments: sorted.attachments,
    skippedAttachments: sorted.skipped,
  };
}

function notAMessage(name: string, path: string, cause?: unknown): IngestError {
  return new IngestError('file_corrupt', `${name} is not a readable e-mail message (no message headers).`, {
    ...(cause === undefined ? {} : { cause }),
    hint: 'Save the message again from the mail program as .eml (RFC 822); a mailbox of many messages is .mbox.',
    details: { path },
  });
}
