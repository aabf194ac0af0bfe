import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { basename } from 'node:path';
import { EmptyAclError, IngestError, isEvidentError } from '../errors/index.ts';
import { parseAclValue, PUBLIC_ACL } from './acl-text.ts';
import { ACL_SIDECAR_SUFFIX } from './discover.ts';
import { formatBytes } from './limits.ts';

export interface AclSources {
  /** `--acl` or an upload's `acl` field, for the whole batch; `[]` is "public", spelled out. */
  override: string[] | undefined;
  /** From the file itself (Markdown front matter); `[]` is "public", spelled out. */
  fromFile: string[] | undefined;
  maxSidecarBytes: number;
  /** A sibling named like the sidecar in another case (`a.md.ACL.json`), found when the folder was listed. */
  sidecarLookalike?: string | undefined;
}

/**
 * The ACL a file is ingested with. Precedence: the override > the sidecar `<file>.acl.json` > the file's own front
 * matter; none of them means visible to every principal. A sidecar that is there but cannot be read (permissions, a
 * directory, a dangling link, an I/O error, too large) fails the file: ignoring it would ingest a restricted file as
 * public, or downgrade the ACL of a version already stored. `docId` names the sidecar in messages, so an error never
 * shows where the server keeps its files.
 */
export async function resolveAcl(path: string, docId: string, sources: AclSources): Promise<string[]> {
  if (sources.override) return sources.override;
  if (sources.sidecarLookalike) {
    throw new IngestError(
      'acl_invalid',
      `${docId} has ${JSON.stringify(sources.sidecarLookalike)} beside it, which Evident does not read as its ACL sidecar: it reads only ${JSON.stringify(basename(docId) + ACL_SIDECAR_SUFFIX)}.`,
      {
        hint: `Rename the sidecar to ${basename(docId)}${ACL_SIDECAR_SUFFIX} (lower case), or give --acl.`,
        details: { sidecar: sources.sidecarLookalike },
      },
    );
  }
  const sidecar = await readSidecar(path + ACL_SIDECAR_SUFFIX, docId + ACL_SIDECAR_SUFFIX, sources.maxSidecarBytes);
  return sidecar ?? sources.fromFile ?? [];
}

async function readSidecar(path: string, shown: string, maxBytes: number): Promise<string[] | undefined> {
  const raw = await readSidecarText(path, shown, maxBytes);
  if (raw === undefined) return undefined;
  const invalid = (why: string, cause?: unknown) =>
    new IngestError('acl_invalid', `${shown} ${why}.`, {
      cause,
      hint: 'It must hold {"acl": ["group:legal", "user:bob"]}. For a file everyone may read: {"acl": "public"}.',
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw invalid('is not valid JSON', cause);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !Object.hasOwn(parsed, 'acl')) {
    throw invalid('has no "acl" array');
  }
  const acl = (parsed as { acl: unknown }).acl;
  // JSON has lists; the one string a sidecar may hold is "public".
  const isPublic = typeof acl === 'string' && acl.trim().toLowerCase() === PUBLIC_ACL;
  if (!Array.isArray(acl) && !isPublic) throw invalid('has no "acl" array');
  try {
    return parseAclValue(acl, shown);
  } catch (cause) {
    if (EmptyAclError.isInstance(cause)) throw cause;
    throw isEvidentError(cause) ? invalid(`has an invalid entry: ${cause.message}`, cause) : cause;
  }
}

/** The sidecar's text, or undefined when there is no entry of that name at all. */
async function readSidecarText(path: string, shown: string, maxBytes: number): Promise<string | undefined> {
  const unreadable = (why: string, cause?: unknown) =>
    new IngestError('acl_unreadable', `${shown} exists but ${why}, so the file's ACL is unknown.`, {
      cause,
      hint: 'Make the sidecar a readable JSON file (or remove it to use the front matter, or give --acl); the stored version is kept.',
    });
  let handle;
  try {
    // Non-blocking: a FIFO in the sidecar's place must not hang the ingest.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      // Nothing of that name, or a symbolic link to nothing: the second is a sidecar that was meant to be there.
      const link = await lstat(path).catch(() => undefined);
      if (link) throw unreadable('is a link to a file that does not exist', cause);
      return undefined;
    }
    throw unreadable(`cannot be opened (${code ?? String(cause)})`, cause);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw unreadable('is not a regular file');
    if (info.size > maxBytes) {
      throw new IngestError(
        'acl_invalid',
        `${shown} is ${formatBytes(info.size)}, over the ingest.maxSidecarBytes limit of ${formatBytes(maxBytes)}.`,
        {
          hint: 'An ACL sidecar holds {"acl": [...]}; raise ingest.maxSidecarBytes (EVIDENT_MAX_SIDECAR_BYTES) if it really is that long.',
        },
      );
    }
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw unreadable(`grew past ${formatBytes(maxBytes)} while it was read`);
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, length));
    } catch (cause) {
      throw new IngestError('acl_invalid', `${shown} is not UTF-8 text.`, { cause, hint: 'Save it as UTF-8 JSON.' });
    }
  } catch (error) {
    if (isEvidentError(error)) throw error;
    throw unreadable(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`, error);
  } finally {
    await handle.close();
  }
}
