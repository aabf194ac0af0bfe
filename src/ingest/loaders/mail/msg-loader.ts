import { basename } from 'node:path';
import msgreader from '@kenjiuno/msgreader';
import type { LoadedDocument } from '../../../domain/index.ts';
import { IngestError } from '../../../errors/index.ts';
import { INGEST_DEFAULTS, type IngestLimits } from '../../limits.ts';
import type { Loader } from '../loader.ts';
import { checkCompoundFile } from './cfb-check.ts';
import { messageDocument } from './eml-loader.ts';
import { messageIds, type MailAttachment, type MailMessage } from './mail-message.ts';

// A CommonJS module whose class is its `default` export: Node's ESM loader gives the module object (the class is its
// `.default`), a bundler's interop may give the class itself.
type MsgReaderClass = typeof msgreader.default;
const exported = msgreader as unknown as MsgReaderClass | { default: MsgReaderClass };
const MsgReader: MsgReaderClass = typeof exported === 'function' ? exported : exported.default;

/**
 * Outlook `.msg`: a compound file (CFB) of MAPI properties, read by msgreader. The Internet headers Outlook keeps
 * (`PR_TRANSPORT_MESSAGE_HEADERS`) give Message-ID, In-Reply-To and References when the message came by mail; a
 * message attached to it is burned back into a `.msg` of its own and read as one.
 */
export const msgLoader: Loader = {
  type: 'email',
  async load(bytes: Buffer, path: string, limits: IngestLimits = INGEST_DEFAULTS): Promise<LoadedDocument> {
    const name = basename(path);
    let message: MailMessage;
    try {
      message = readMsg(bytes, name, limits);
    } catch (cause) {
      if (IngestError.isInstance(cause)) throw cause;
      throw new IngestError('file_corrupt', `${name} is not a readable Outlook message (.msg).`, {
        cause,
        hint: 'Save the message again from Outlook (File › Save As › Outlook Message Format), or export it as .eml.',
        details: { path },
      });
    }
    return messageDocument(message, name, limits);
  },
};

function readMsg(bytes: Buffer, name: string, limits: IngestLimits): MailMessage {
  checkCompoundFile(bytes, name, limits);
  // Its own ArrayBuffer: the read buffer may be a slice of a larger one, which msgreader would read from its start.
  const reader = new MsgReader(new Uint8Array(bytes).buffer);
  const fields = reader.getFileData();
  if (fields.error) throw new Error(fields.error);
  if (fields.dataType !== 'msg') throw new Error('not a message');
  const transport = headerFields(fields.headers ?? '');
  const recipients = (type: 'to' | 'cc') =>
    (fields.recipients ?? [])
      .filter((recipient) => (recipient.recipType ?? 'to') === type)
      .map(address)
      .filter((text) => text !== '')
      .join(', ');
  const from = address({ name: fields.senderName, email: fields.senderSmtpAddress ?? fields.senderEmail });
  const sent = fields.clientSubmitTime ?? fields.messageDeliveryTime ?? transport.get('date');
  const date = sent ? new Date(sent) : undefined;
  const subject = fields.subject?.trim();
  const attachments: MailAttachment[] = [];
  for (const attachment of fields.attachments ?? []) {
    // Counted before it is read: a compound file can point many streams at the same sectors.
    if (attachments.length >= limits.maxArchiveEntries) break;
    const data = reader.getAttachment(attachment);
    attachments.push({
      name: data.fileName || attachment.fileName || attachment.fileNameShort,
      contentType:
        attachment.attachMimeTag ??
        (attachment.innerMsgContent ? 'application/vnd.ms-outlook' : 'application/octet-stream'),
      bytes: data.content,
    });
  }
  if (fields.attachments && fields.attachments.length > attachments.length)
    // One more than the bound, so the budget check names it.
    attachments.push({ name: undefined, contentType: 'application/octet-stream', bytes: new Uint8Array(0) });
  const html = fields.bodyHtml ?? (fields.html ? new TextDecoder().decode(fields.html) : undefined);
  return {
    headers: {
      ...(from ? { from } : {}),
      ...optional('to', recipients('to')),
      ...optional('cc', recipients('cc')),
      ...(date && !Number.isNaN(date.getTime()) ? { date } : {}),
      ...optional('subject', subject),
      ...optional('messageId', messageIds(transport.get('message-id'))[0]),
      ...optional('inReplyTo', messageIds(transport.get('in-reply-to'))[0]),
      references: messageIds(transport.get('references')),
    },
    ...(fields.body ? { text: fields.body } : {}),
    ...(html ? { html } : {}),
    attachments,
  };
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value ? { [key]: value } : {}) as Partial<Record<K, string>>;

const address = ({ name, email }: { name?: string | undefined; email?: string | undefined }): string =>
  name && email && name !== email ? `${name} <${email}>` : (email ?? name ?? '');

/** The fields of an RFC 5322 header section (folded lines unfolded), by lower-case name; the first of each wins. */
function headerFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(key)) fields.set(key, line.slice(colon + 1).trim());
  }
  return fields;
}
