import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { messageIds, type MailMessage } from './mail-message.ts';

/** Header fields one of which every RFC 5322 message has; a file with none of them is not a message. */
const MESSAGE_FIELDS = ['from', 'date', 'subject', 'message-id', 'to', 'received', 'sender'];

/**
 * Parses one RFC 822/5322 message with mailparser: headers decoded (RFC 2047 words, charsets), parts decoded
 * (base64, quoted-printable), attachments held as bytes. The HTML part is kept as HTML (Evident reads it through its
 * own HTML path), so mailparser's HTML-to-text and link rewriting are off. Undefined when the bytes hold no header
 * of a message at all.
 */
export async function parseMime(bytes: Uint8Array): Promise<MailMessage | undefined> {
  const mail: ParsedMail = await simpleParser(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
  });
  if (!MESSAGE_FIELDS.some((field) => mail.headers.has(field))) return undefined;
  const html = typeof mail.html === 'string' ? mail.html : undefined;
  return {
    headers: {
      ...optional('from', addresses(mail.from)),
      ...optional('to', addresses(mail.to)),
      ...optional('cc', addresses(mail.cc)),
      ...(mail.date ? { date: mail.date } : {}),
      ...optional('subject', mail.subject?.trim()),
      ...optional('messageId', messageIds(mail.messageId)[0]),
      ...optional('inReplyTo', messageIds(mail.inReplyTo)[0]),
      references: messageIds(mail.references),
    },
    ...(mail.text ? { text: mail.text } : {}),
    ...(html ? { html } : {}),
    attachments: mail.attachments.map((attachment) => ({
      name: attachment.filename,
      contentType: attachment.contentType,
      bytes: attachment.content,
      ...(attachment.related ? { inline: true } : {}),
    })),
  };
}

const optional = <K extends string>(key: K, value: string | undefined) =>
  (value ? { [key]: value } : {}) as Partial<Record<K, string>>;

/** `"Bob" <bob@x.org>, alice@x.org`: the field as mailparser renders it in text. */
function addresses(field: AddressObject | AddressObject[] | undefined): string | undefined {
  if (!field) return undefined;
  const text = (Array.isArray(field) ? field : [field]).map((entry) => entry.text).join(', ');
  return text.trim() || undefined;
}
