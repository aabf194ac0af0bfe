import { basename, extname } from 'node:path';
import type { Block, LoadedDocument } from '../../../domain/index.ts';
import { IngestError } from '../../../errors/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../../limits.ts';
import type { Loader } from '../loader.ts';
import { AttachmentBudget, sortAttachments, type SortedAttachments } from './attachments.ts';
import { bodyBlocks, headerBlock, type MailMessage } from './mail-message.ts';
import { parseMime } from './parse-mime.ts';
import { splitMbox } from './split-mbox.ts';

/**
 * `.mbox`: a mailbox of many messages, one document. Message N's blocks carry `page` N, so a citation says which
 * message it quotes ("message N"); each opens with its subject as a heading and its header block. Attachments are
 * named `message N/<file>`, and all of them count towards one budget.
 */
export const mboxLoader: Loader = {
  type: 'mbox',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const name = basename(path);
    const messages = splitMbox(bytes, name, limits);
    if (messages.length === 0) {
      throw new IngestError('file_corrupt', `${name} is not an mbox mailbox (it does not start with a "From " line).`, {
        hint: 'Export the mailbox again as mbox; a single message is read as .eml.',
        details: { path },
      });
    }
    const budget = new AttachmentBudget(name, limits);
    const sorted: SortedAttachments = { attachments: [], skipped: [] };
    const blocks: Block[] = [];
    for (const [i, raw] of messages.entries()) {
      const page = i + 1;
      let message: MailMessage | undefined;
      try {
        message = await parseMime(raw);
      } catch (cause) {
        throw new IngestError('file_corrupt', `${name}: message ${page} cannot be read.`, {
          cause,
          hint: 'Export the mailbox again as mbox.',
          details: { path, message: page },
        });
      }
      // A separator line with nothing after it (a truncated export) holds no message: nothing to cite.
      if (!message) continue;
      blocks.push({ kind: 'heading', level: 1, text: message.headers.subject || `Message ${page}`, page });
      const header = headerBlock(message.headers, page);
      if (header) blocks.push(header);
      blocks.push(...bodyBlocks(message, name, limits, page));
      sortAttachments(message.attachments, budget, sorted, `message ${page}/`);
    }
    return {
      title: basename(name, extname(name)),
      blocks,
      pageCount: messages.length,
      metadata: { messages: String(messages.length) },
      attachments: sorted.attachments,
      skippedAttachments: sorted.skipped,
    };
  },
};
