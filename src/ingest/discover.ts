import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { IngestError } from '../errors/index.ts';

/** A file to ingest and the doc_id it will have. */
export interface DiscoveredFile {
  path: string;
  docId: string;
  /** Where the file came from, when `path` is only a temporary copy (an upload); defaults to `path`. */
  source?: string;
  /** Keep the file's bytes with its version in the store (an upload, whose temporary copy is removed). */
  keepOriginal?: boolean;
  /**
   * A sibling named like this file's ACL sidecar but not exactly (`a.md.ACL.json` for `a.md.acl.json`): Evident
   * reads only the exact name, so the file fails rather than be ingested as if it had no sidecar.
   */
  sidecarLookalike?: string;
}

export interface Discovery {
  files: DiscoveredFile[];
  /** Paths that do not exist or cannot be read; reported like any other failed file. */
  missing: { path: string; error: IngestError }[];
}

export const ACL_SIDECAR_SUFFIX = '.acl.json';

const isHidden = (name: string) => name.startsWith('.');
/** A sidecar by name, in any case: skipped as a document either way. */
const isSidecarName = (name: string) => name.toLowerCase().endsWith(ACL_SIDECAR_SUFFIX);

/** The name among `siblings` that is `name`'s sidecar in another case, if any. */
function lookalikeOf(name: string, siblings: ReadonlyMap<string, readonly string[]>): string | undefined {
  const exact = name + ACL_SIDECAR_SUFFIX;
  return siblings.get(exact.toLowerCase())?.find((sibling) => sibling !== exact);
}

function byLowerName(names: readonly string[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const name of names) {
    const key = name.toLowerCase();
    map.set(key, [...(map.get(key) ?? []), name]);
  }
  return map;
}
const toPosix = (path: string) => path.split(sep).join('/');

/**
 * Expands the paths given to `ingest`: a folder yields its files recursively with doc_id = path relative to it;
 * a file yields itself with doc_id = its name. Hidden entries, node_modules, ACL sidecars and `exclude` (the
 * store's own files, when it lives inside an ingested folder) are skipped.
 */
export async function discoverFiles(paths: readonly string[], exclude: readonly string[] = []): Promise<Discovery> {
  const files: DiscoveredFile[] = [];
  const missing: Discovery['missing'] = [];
  const seen = new Set<string>();
  const excluded = new Set(exclude.map((path) => resolve(path)));
  const add = (file: DiscoveredFile) => {
    if (seen.has(file.path) || excluded.has(file.path)) return;
    seen.add(file.path);
    files.push(file);
  };

  for (const given of paths) {
    const root = resolve(given);
    const info = await stat(root).catch(() => undefined);
    if (!info) {
      missing.push({
        path: given,
        error: new IngestError('path_not_found', `${given} does not exist.`, { hint: 'Check the path.' }),
      });
    } else if (info.isDirectory()) {
      for (const { path, sidecarLookalike } of await walk(root)) {
        add({ path, docId: toPosix(relative(root, path)), ...(sidecarLookalike ? { sidecarLookalike } : {}) });
      }
    } else if (!isSidecarName(basename(root))) {
      const siblings = byLowerName(await readdir(dirname(root)).catch(() => []));
      const sidecarLookalike = lookalikeOf(basename(root), siblings);
      add({ path: root, docId: basename(root), ...(sidecarLookalike ? { sidecarLookalike } : {}) });
    }
  }
  return { files, missing };
}

type Walked = { path: string; sidecarLookalike?: string };

// One output list through the recursion: spreading a folder's files as arguments overflows the stack at ~100,000.
async function walk(dir: string, out: Walked[] = []): Promise<Walked[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const siblings = byLowerName(entries.map((entry) => entry.name));
  for (const entry of entries) {
    if (isHidden(entry.name) || entry.name === 'node_modules') continue;
    const path = resolve(dir, entry.name);
    if (entry.isDirectory()) {
      await walk(path, out);
    } else if (entry.isFile() && !isSidecarName(entry.name)) {
      const sidecarLookalike = lookalikeOf(entry.name, siblings);
      out.push(sidecarLookalike ? { path, sidecarLookalike } : { path });
    }
  }
  return out;
}
