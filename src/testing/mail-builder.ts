import { burn, type Entry } from '@kenjiuno/msgreader/lib/Burner.js';
import { TypeEnum } from '@kenjiuno/msgreader/lib/Reader.js';

/** A file part of a test message. */
export interface MailPart {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface MailSpec {
  from?: string;
  to?: string;
  cc?: string;
  subject?: string;
  date?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string;
  /** Sent quoted-printable (UTF-8). */
  text?: string;
  /** Sent base64 (UTF-8); with `text`, the two are alternatives. */
  html?: string;
  attachments?: MailPart[];
}

const CRLF = '\r\n';

let boundaries = 0;
/** A boundary no other part of a test message uses: a message forwarded inside another has its own. */
const nextBoundary = (kind: string) => `${kind}-boundary-${(boundaries += 1)}`;

/** base64 in lines of 76, as MIME writes it. */
const base64Lines = (bytes: Uint8Array) =>
  (
    Buffer.from(bytes)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join(CRLF);

/** Quoted-printable of UTF-8 text (RFC 2045): soft line breaks at 76, `=` and non-ASCII encoded. */
export function quotedPrintable(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let out = '';
      let width = 0;
      for (const byte of Buffer.from(line, 'utf8')) {
        const literal = byte >= 33 && byte <= 126 && byte !== 61 ? String.fromCharCode(byte) : undefined;
        const piece = literal ?? `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
        if (width + piece.length > 75) {
          out += `=${CRLF}`;
          width = 0;
        }
        out += byte === 32 ? ' ' : piece;
        width += piece.length;
      }
      return out.endsWith(' ') ? `${out.slice(0, -1)}=20` : out;
    })
    .join(CRLF);
}

/** An RFC 822 message: headers, a text and/or HTML body, base64 attachments (multipart/mixed when there are any). */
export function buildEml(spec: MailSpec): Buffer {
  const headers = [
    spec.from && `From: ${spec.from}`,
    spec.to && `To: ${spec.to}`,
    spec.cc && `Cc: ${spec.cc}`,
    spec.subject && `Subject: ${spec.subject}`,
    spec.date && `Date: ${spec.date}`,
    spec.messageId && `Message-ID: ${spec.messageId}`,
    spec.inReplyTo && `In-Reply-To: ${spec.inReplyTo}`,
    spec.references && `References: ${spec.references}`,
    'MIME-Version: 1.0',
  ].filter(Boolean);
  const body = bodyPart(spec);
  const attachments = spec.attachments ?? [];
  if (attachments.length === 0) return Buffer.from([...headers, body].join(CRLF));
  const boundary = nextBoundary('mixed');
  const parts = [
    body,
    ...attachments.map((part) =>
      [
        `Content-Type: ${part.contentType}; name="${part.name}"`,
        `Content-Disposition: attachment; filename="${part.name}"`,
        ...(part.contentType === 'message/rfc822'
          ? ['', Buffer.from(part.bytes).toString('latin1')]
          : ['Content-Transfer-Encoding: base64', '', base64Lines(part.bytes)]),
      ].join(CRLF),
    ),
  ];
  return Buffer.from(
    [
      ...headers,
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      '',
      ...parts.map((part) => `--${boundary}${CRLF}${part}`),
      `--${boundary}--`,
      '',
    ].join(CRLF),
    'latin1',
  );
}

/** The body as a header block and content: text/plain, text/html, or multipart/alternative of both. */
function bodyPart(spec: MailSpec): string {
  const text = spec.text === undefined ? undefined : textPart(spec.text);
  const html = spec.html === undefined ? undefined : htmlPart(spec.html);
  if (text && html) {
    const boundary = nextBoundary('alt');
    return [
      `Content-Type: multipart/alternative; boundary="${boundary}"`,
      '',
      `--${boundary}${CRLF}${text}`,
      `--${boundary}${CRLF}${html}`,
      `--${boundary}--`,
      '',
    ].join(CRLF);
  }
  return text ?? html ?? textPart('');
}

const textPart = (text: string) =>
  [
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(text),
    '',
  ].join(CRLF);
const htmlPart = (html: string) =>
  [
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(Buffer.from(html)),
    '',
  ].join(CRLF);

/** An mbox of `messages`, each after a `From ` separator line, body lines starting with `From ` escaped (mboxrd). */
export function buildMbox(messages: readonly Buffer[]): Buffer {
  return Buffer.concat(
    messages.map((message) => {
      const escaped = message.toString('latin1').replace(/^(>*From )/gm, '>$1');
      return Buffer.from(`From sender@example.org Tue Dec  1 10:00:00 2026\n${escaped}\n\n`, 'latin1');
    }),
  );
}

export interface MsgSpec {
  subject: string;
  body: string;
  senderName?: string;
  senderEmail?: string;
  /** The Internet headers Outlook keeps of a message that came by mail (Message-ID, In-Reply-To, References). */
  transportHeaders?: string;
  attachments?: { name: string; bytes: Uint8Array }[];
}

/**
 * An Outlook .msg: a compound file (written by msgreader's own CFB burner) holding the MAPI property streams Outlook
 * writes — subject, body, sender, transport headers (PT_UNICODE, `__substg1.0_<tag>001F`) and one storage per
 * attachment with its long file name and data (`3707001F`, `37010102`).
 */
export function buildMsg(spec: MsgSpec): Uint8Array {
  const entries: Entry[] = [];
  const add = (entry: Entry) => entries.push(entry) - 1;
  // A copy with its own buffer: the burner reads the whole ArrayBuffer behind what it is given.
  const stream = (name: string, data: Uint8Array) =>
    add({ name, type: TypeEnum.DOCUMENT, length: data.length, binaryProvider: () => new Uint8Array(data) });
  const unicode = (tag: string, text: string) => stream(`__substg1.0_${tag}001F`, Buffer.from(`${text}\0`, 'utf16le'));
  const root = add({ name: 'Root Entry', type: TypeEnum.ROOT, length: 0, children: [] });
  const children = [
    unicode('0037', spec.subject),
    unicode('1000', spec.body),
    ...(spec.senderName ? [unicode('0C1A', spec.senderName)] : []),
    ...(spec.senderEmail ? [unicode('5D01', spec.senderEmail)] : []),
    ...(spec.transportHeaders ? [unicode('007D', spec.transportHeaders)] : []),
    stream('__properties_version1.0', new Uint8Array(32)),
  ];
  for (const [i, attachment] of (spec.attachments ?? []).entries()) {
    const folder = add({
      name: `__attach_version1.0_#${i.toString(16).toUpperCase().padStart(8, '0')}`,
      type: TypeEnum.DIRECTORY,
      length: 0,
      children: [],
    });
    (entries[folder] as Entry).children = [
      unicode('3707', attachment.name),
      stream('__substg1.0_37010102', attachment.bytes),
      stream('__properties_version1.0', new Uint8Array(8)),
    ];
    children.push(folder);
  }
  (entries[root] as Entry).children = children;
  return burn(entries);
}
