import type { Block, DocumentMetadata } from '../../../domain/index.ts';
import type { IngestLimits } from '../../limits.ts';
import { normalizeNewlines } from '../decode-text.ts';
import { htmlToDocument } from '../html-blocks.ts';
import { threadKey } from './thread-key.ts';

/** The headers Evident keeps of a message, whichever format it came in. */
export interface MailHeaders {
  from?: string;
  to?: string;
  cc?: string;
  date?: Date;
  subject?: string;
  /** Message ids without their angle brackets. */
  messageId?: string;
  inReplyTo?: string;
  references: string[];
}

/** One part a message carries as a file (its name as the sender gave it, if any). */
export interface MailAttachment {
  name: string | undefined;
  contentType: string;
  bytes: Uint8Array;
  /** A picture the HTML body shows in place (`cid:`, in multipart/related): a logo or signature, part of the body. */
  inline?: boolean;
}

/** A parsed message: headers, its body as text or HTML, and its attachments. */
export interface MailMessage {
  headers: MailHeaders;
  text?: string;
  html?: string;
  attachments: MailAttachment[];
}

/** `<a@b> <c@d>` → `['a@b', 'c@d']`; a bare id is kept as it is. */
export function messageIds(value: string | readonly string[] | undefined): string[] {
  const text = typeof value === 'string' ? value : (value ?? []).join(' ');
  const bracketed = [...text.matchAll(/<([^<>\s]+)>/g)].map((match) => match[1] as string);
  if (bracketed.length > 0) return bracketed;
  return text.split(/\s+/).filter((id) => id !== '');
}

/**
 * The header block that opens a message: who wrote to whom, when, and about what, so these are searchable as text
 * (a question "what did Alice write on 1 December" finds it). Message ids are metadata, not prose.
 */
export function headerBlock(headers: MailHeaders, page?: number): Block | undefined {
  const date = headers.date && isoDate(headers.date);
  const lines = [
    headers.from && `From: ${headers.from}`,
    headers.to && `To: ${headers.to}`,
    headers.cc && `Cc: ${headers.cc}`,
    date && `Date: ${date}`,
    headers.subject && `Subject: ${headers.subject}`,
  ].filter((line): line is string => Boolean(line));
  if (lines.length === 0) return undefined;
  return { kind: 'text', text: lines.join('\n'), ...(page === undefined ? {} : { page }) };
}

/**
 * The body as blocks: the plain-text part when there is one (paragraphs as they are, quoted lines included, never
 * taken for headings), else the HTML part read as HTML.
 */
export function bodyBlocks(message: MailMessage, name: string, limits: IngestLimits, page?: number): Block[] {
  const at = page === undefined ? {} : { page };
  if (message.text?.trim()) {
    return normalizeNewlines(message.text)
      .split(/\n[ \t]*\n/)
      .map((paragraph) => paragraph.replace(/[ \t]+$/gm, '').trim())
      .filter((paragraph) => paragraph !== '')
      .map((text): Block => ({ kind: 'text', text, ...at }));
  }
  if (message.html?.trim())
    return htmlToDocument(message.html, name, limits).blocks.map((block) => ({ ...block, ...at }));
  return [];
}

/** The headers as document metadata (snake_case keys; only those the message has). */
export function messageMetadata(headers: MailHeaders): DocumentMetadata {
  const thread = threadKey(headers);
  const entries: [string, string | undefined][] = [
    ['from', headers.from],
    ['to', headers.to],
    ['cc', headers.cc],
    ['date', headers.date && isoDate(headers.date)],
    ['subject', headers.subject],
    ['message_id', headers.messageId],
    ['in_reply_to', headers.inReplyTo],
    ['references', headers.references.length > 0 ? headers.references.join(' ') : undefined],
    ['thread', thread],
  ];
  return Object.fromEntries(entries.filter((entry): entry is [string, string] => Boolean(entry[1])));
}

/** A date as ISO 8601, or nothing for an unparseable Date header (mailparser then gives an invalid Date). */
const isoDate = (date: Date): string => (Number.isNaN(date.getTime()) ? '' : date.toISOString());
