import { extname } from 'node:path';
import type { LoadedAttachment } from '../../../domain/index.ts';
import { formatBytes, limitExceeded, type IngestLimits } from '../../limits.ts';
import type { MailAttachment } from './mail-message.ts';

/** Longest attachment name kept (the doc_id it makes must stay within the identifier bound). */
const MAX_NAME_CHARS = 120;
// Control, bidirectional and path characters: a name is one segment of a doc_id, never a path out of it.
const UNSAFE_NAME = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069/\\]/g;

/** What the attachments of one file may add up to: `ingest.maxArchiveEntries` files, `ingest.maxExpandedBytes` decoded. */
export class AttachmentBudget {
  private count = 0;
  private bytes = 0;
  private readonly errors = new WeakSet<Error>();

  constructor(
    private readonly file: string,
    private readonly limits: IngestLimits,
  ) {}

  /** Counts one attachment of `bytes` decoded bytes; over a bound the whole file fails, typed. */
  take(bytes: number): void {
    this.count += 1;
    this.bytes += bytes;
    const { maxArchiveEntries, maxExpandedBytes } = this.limits;
    if (this.count > maxArchiveEntries)
      throw this.remember(
        limitExceeded(
          'maxArchiveEntries',
          this.file,
          `carries more than ${maxArchiveEntries} attachments`,
          this.limits,
        ),
      );
    if (this.bytes > maxExpandedBytes)
      throw this.remember(
        limitExceeded(
          'maxExpandedBytes',
          this.file,
          `has attachments that decode to more than ${formatBytes(maxExpandedBytes)}`,
          this.limits,
        ),
      );
  }

  /** Whether `error` is this budget's own (the file's bound), rather than a bound of something inside it. */
  raised(error: Error): boolean {
    return this.errors.has(error);
  }

  private remember(error: Error): Error {
    this.errors.add(error);
    return error;
  }
}

/** The attachments of a file and those left out with why, named uniquely within it. */
export interface SortedAttachments {
  attachments: LoadedAttachment[];
  skipped: { name: string; reason: string }[];
}

/**
 * Names a message's attachments (uniquely, safely; `prefix` places them: `message 3/` inside a mailbox) and counts
 * every one towards `budget`: the parser decoded them all. Whether a loader reads one is the ingestor's question;
 * an empty one, and a picture the HTML body shows in place (a logo, a signature), are skipped here.
 */
export function sortAttachments(
  parts: readonly MailAttachment[],
  budget: AttachmentBudget,
  into: SortedAttachments,
  prefix = '',
): void {
  const taken = new Set([...into.attachments, ...into.skipped].map((entry) => entry.name.toLowerCase()));
  for (const [i, part] of parts.entries()) {
    budget.take(part.bytes.byteLength);
    const name = uniqueName(prefix + attachmentName(part, i + 1), taken);
    if (part.bytes.byteLength === 0) into.skipped.push({ name, reason: 'empty' });
    else if (part.inline) into.skipped.push({ name, reason: 'a picture shown in the message body' });
    else into.attachments.push({ name, bytes: part.bytes });
  }
}

/** A safe file name for an attachment: the sender's, or `attachment-<n>` with an extension its type implies. */
function attachmentName(part: MailAttachment, ordinal: number): string {
  const given = (part.name ?? '').replace(UNSAFE_NAME, '_').trim().replace(/^\.+/, '');
  const type = part.contentType.toLowerCase();
  const implied = type === 'message/rfc822' ? '.eml' : '';
  let name = given || `attachment-${ordinal}${implied}`;
  // A forwarded message named without .eml is still read as one.
  if (implied && extname(name).toLowerCase() !== '.eml') name += implied;
  if (name.length <= MAX_NAME_CHARS) return name;
  const ext = extname(name).slice(0, 16);
  return name.slice(0, MAX_NAME_CHARS - ext.length) + ext;
}

/** `name`, or `name (2)` before its extension when the file already has an attachment of that name. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const ext = extname(name);
  for (let n = 2; taken.has(candidate.toLowerCase()); n += 1)
    candidate = `${name.slice(0, name.length - ext.length)} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
