import type { Context } from 'hono';
import { ValidationError } from '../../errors/index.ts';
import { parseAclValue } from '../../ingest/acl-text.ts';
import { ACL_SIDECAR_SUFFIX } from '../../ingest/discover.ts';
import { UNSAFE_ID_CHAR, escapeUnsafe } from '../../domain/identifier.ts';

/** One uploaded file and the doc_id it will be stored under (`<folder>/<file name>`). */
export interface UploadedFile {
  docId: string;
  name: string;
  file: File;
}

export interface UploadForm {
  files: UploadedFile[];
  /**
   * From the `acl` field; undefined (no field) leaves each file's own ACL (Markdown front matter), as the CLI does;
   * `[]` is `acl=public`. A field that is sent but names no one (`acl=`, `acl=,`) is refused, never public.
   */
  acl: string[] | undefined;
}

const FORM_HINT =
  'Send multipart/form-data with one or more file parts named "files", an optional "folder" (e.g. contracts) and an optional "acl" (e.g. group:legal,user:alice, or public), e.g. `curl -F files=@x.md -F folder=contracts`.';
const FIELDS = ['files', 'folder', 'acl'];
// Names are written to disk as one path segment; longer ones would fail there with a system error.
const MAX_NAME_BYTES = 255;
// Controls and bidirectional overrides/isolates: the characters no doc_id may hold (see ingest/doc-id.ts).
const CONTROL_CHARS = UNSAFE_ID_CHAR;

const invalid = (message: string, hint = FORM_HINT) => new ValidationError(message, { hint });

/**
 * Reads and validates an upload form. Every name becomes part of a doc_id and of a temp file path, so anything that
 * could climb out of its folder (`..`, absolute paths, separators in a file name) is refused before a byte is written.
 */
export async function readUploadForm(c: Context): Promise<UploadForm> {
  if (!/^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? '')) {
    throw invalid('Documents are uploaded as multipart/form-data.');
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch (cause) {
    throw new ValidationError('The multipart body could not be parsed.', { cause, hint: FORM_HINT });
  }

  const files: File[] = [];
  const texts = new Map<string, string>();
  for (const [field, value] of form.entries()) {
    if (!FIELDS.includes(field))
      throw invalid(`Unknown form field ${JSON.stringify(field)}; the fields are ${FIELDS.join(', ')}.`);
    if (field === 'files') {
      if (typeof value === 'string')
        throw invalid('The "files" parts must be files (with a filename), not text fields.');
      files.push(value);
    } else {
      if (typeof value !== 'string') throw invalid(`The "${field}" field must be text, not a file.`);
      if (texts.has(field)) throw invalid(`The "${field}" field was sent more than once.`);
      texts.set(field, value);
    }
  }
  if (files.length === 0) throw invalid('The upload has no file parts named "files".');

  const folder = folderSegments(texts.get('folder') ?? '');
  const seen = new Set<string>();
  const uploaded = files.map((file) => {
    const name = checkFileName(file.name);
    const docId = [...folder, name].join('/');
    if (seen.has(docId))
      throw invalid(
        `Two files would both be stored as ${JSON.stringify(docId)}.`,
        'Upload each file name once per request.',
      );
    seen.add(docId);
    return { docId, name, file };
  });
  const aclText = texts.get('acl');
  return { files: uploaded, acl: aclText === undefined ? undefined : parseAclValue(aclText, 'the "acl" field') };
}

/** `contracts` or `contracts/2024` → its segments; blank means the files go to the top level. */
function folderSegments(raw: string): string[] {
  const folder = raw.trim().replace(/\/$/, '');
  if (!folder) return [];
  const hint = 'Give "folder" as a relative path of plain names, like contracts or contracts/2024.';
  if (folder.startsWith('/') || /^[A-Za-z]:/.test(folder))
    throw invalid(`The folder ${JSON.stringify(raw)} is absolute.`, hint);
  if (folder.includes('\\') || CONTROL_CHARS.test(folder)) {
    throw invalid(
      `The folder ${JSON.stringify(escapeUnsafe(raw))} has a backslash, a control or a bidirectional character.`,
      hint,
    );
  }
  const segments = folder.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw invalid(`The folder ${JSON.stringify(raw)} has an empty, "." or ".." segment.`, hint);
    }
  }
  return segments;
}

function checkFileName(raw: string): string {
  const hint = 'A file name is one plain name like ct-2024-0193.md; put folders in the "folder" field.';
  if (!raw.trim()) throw invalid('A file part has an empty file name.', hint);
  if (raw.includes('/') || raw.includes('\\'))
    throw invalid(`The file name ${JSON.stringify(raw)} contains a path separator.`, hint);
  if (raw === '.' || raw === '..') throw invalid(`The file name ${JSON.stringify(raw)} is not allowed.`, hint);
  if (CONTROL_CHARS.test(raw)) {
    throw invalid(
      `The file name ${JSON.stringify(escapeUnsafe(raw))} holds a control or bidirectional character.`,
      `${hint} Rename it without control, bidirectional-override or isolate characters.`,
    );
  }
  if (Buffer.byteLength(raw) > MAX_NAME_BYTES)
    throw invalid(
      `The file name ${JSON.stringify(raw.slice(0, 40) + '…')} is longer than ${MAX_NAME_BYTES} bytes.`,
      hint,
    );
  if (raw.endsWith(ACL_SIDECAR_SUFFIX)) {
    throw invalid(
      `${JSON.stringify(raw)} is an ACL sidecar file, which an upload does not read.`,
      'Send the ACL in the "acl" form field instead.',
    );
  }
  return raw;
}
