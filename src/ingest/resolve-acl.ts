import { readFile } from 'node:fs/promises';
import { parseAcl } from '../domain/index.ts';
import { IngestError, isEvidentError } from '../errors/index.ts';
import { ACL_SIDECAR_SUFFIX } from './discover.ts';

/**
 * The ACL a file is ingested with. Precedence: `--acl` (explicit, for the whole batch) > the sidecar
 * `<file>.acl.json` > the file's own front matter. No ACL at all means visible to every principal.
 */
export async function resolveAcl(path: string, fromFlag: string[] | undefined, fromFile: string[] | undefined): Promise<string[]> {
  if (fromFlag) return fromFlag;
  const sidecar = await readSidecar(path);
  return sidecar ?? fromFile ?? [];
}

async function readSidecar(path: string): Promise<string[] | undefined> {
  const sidecarPath = path + ACL_SIDECAR_SUFFIX;
  let raw: string;
  try {
    raw = await readFile(sidecarPath, 'utf8');
  } catch {
    return undefined;
  }
  const invalid = (why: string, cause?: unknown) =>
    new IngestError('acl_invalid', `${sidecarPath} ${why}.`, {
      cause,
      hint: 'It must hold {"acl": ["group:legal", "user:bob"]}.',
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw invalid('is not valid JSON', cause);
  }
  const acl = (parsed as { acl?: unknown } | null)?.acl;
  if (!Array.isArray(acl)) throw invalid('has no "acl" array');
  try {
    return parseAcl(acl, sidecarPath);
  } catch (cause) {
    throw isEvidentError(cause) ? invalid(`has an invalid entry: ${cause.message}`, cause) : cause;
  }
}
