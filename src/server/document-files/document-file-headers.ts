import { basename } from 'node:path';
import type { DocumentRecord } from '../../domain/index.ts';

/** Types a browser may show inline; everything else is a download. Markup is served as plain text, never rendered. */
const INLINE: Record<string, string> = {
  pdf: 'application/pdf',
  markdown: 'text/plain; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  csv: 'text/plain; charset=utf-8',
  html: 'text/plain; charset=utf-8',
};

const DOWNLOAD: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
};

/** RFC 6266 filename: an ASCII fallback and the UTF-8 name. */
function disposition(kind: 'inline' | 'attachment', docId: string): string {
  const name = basename(docId);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Headers of a served original: its type by the loader that read it, its length, and a sandbox, so that a stored
 * HTML or SVG-bearing file can never run script in the UI's origin (the bytes are users' documents, not ours). The
 * content hash is the ETag: the same version is the same bytes. Private: a shared cache must not keep what an ACL guards.
 */
export function documentFileHeaders(record: DocumentRecord, length: number): Record<string, string> {
  const inline = INLINE[record.type];
  return {
    'content-type': inline ?? DOWNLOAD[record.type] ?? 'application/octet-stream',
    'content-length': String(length),
    'content-disposition': disposition(inline ? 'inline' : 'attachment', record.docId),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
    'cache-control': 'private, no-cache',
    etag: `"${record.contentHash}"`,
  };
}
