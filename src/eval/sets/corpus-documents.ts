import { readFile } from 'node:fs/promises';
import { principalAclKeys, type Principal } from '../../domain/index.ts';
import { discoverFiles } from '../../ingest/discover.ts';
import { INGEST_DEFAULTS } from '../../ingest/limits.ts';
import { loaderFor } from '../../ingest/loaders/index.ts';
import { resolveAcl } from '../../ingest/resolve-acl.ts';

/** A corpus file as the ingester reads it: its text (blocks joined) and the ACL it is stored with. */
export interface CorpusDocument {
  docId: string;
  text: string;
  acl: readonly string[];
}

/**
 * Reads a corpus folder through the same discovery, loaders and ACL precedence as `evident ingest`, so checks of an
 * eval set against the corpus see exactly the text and permissions the store will hold.
 */
export async function readCorpusDocuments(dir: string): Promise<Map<string, CorpusDocument>> {
  const { files } = await discoverFiles([dir]);
  const documents = new Map<string, CorpusDocument>();
  for (const file of files) {
    const loader = loaderFor(file.path);
    if (!loader) continue;
    const loaded = await loader.load(await readFile(file.path), file.path);
    const acl = await resolveAcl(file.path, file.docId, {
      override: undefined,
      fromFile: loaded.acl,
      maxSidecarBytes: INGEST_DEFAULTS.maxSidecarBytes,
    });
    const text = loaded.blocks.map((block) => block.text).join('\n');
    documents.set(file.docId, { docId: file.docId, text, acl });
  }
  return documents;
}

/** Whether the principal may see a document with this ACL (an empty ACL is public), as the store's filter decides. */
export function mayRead(acl: readonly string[], principal: Principal): boolean {
  const keys = principalAclKeys(principal);
  return keys === undefined || acl.length === 0 || acl.some((entry) => keys.includes(entry));
}
