import { lstat, realpath, stat } from 'node:fs/promises';
import { discoverFiles, type DiscoveredFile } from '../ingest/discover.ts';
import type { IngestLimits } from '../ingest/limits.ts';
import { loaderFor } from '../ingest/loaders/index.ts';
import { prepareItem, sha256 } from '../ingest/prepare-document.ts';
import { readFileOnce } from '../ingest/read-file-once.ts';
import { folderKey, folderSourcePrefix, parseFolderSource } from './folder-origin.ts';
import { describeFailure } from '../ingest/process-document.ts';
import { ACL_SIDECAR_SUFFIX } from '../ingest/discover.ts';
import { SourceError } from '../errors/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { Connector, ConnectorItem, ConnectorPage, FetchResult, StoredDocument } from './connector.ts';

export interface FolderSourceOptions {
  limits: IngestLimits;
  logger: Logger;
  /** Files never listed (the store's own, when it lives inside the folder). */
  exclude?: readonly string[];
  aclOverride?: string[] | undefined;
}

interface Known {
  stamp: string;
  item: ConnectorItem;
}

/**
 * A folder as a connector. doc_id = the file's path relative to the folder (as `evident ingest <folder>` gives it);
 * `source` = `folder:<key>/<doc_id>`, where the key is derived from the folder's real path, so a sync deletes only
 * what came from this folder. Listing hashes each stored file whose size, times or sidecar moved since it was last
 * listed, and parses it for its ACL (sidecar, front matter) only when its content is the stored one.
 */
export class FolderSource implements Connector {
  readonly label: string;
  readonly aclOverride: string[] | undefined;
  private key: string | undefined;
  private readonly known = new Map<string, Known>();
  private files = new Map<string, DiscoveredFile>();

  constructor(
    readonly root: string,
    private readonly options: FolderSourceOptions,
  ) {
    this.label = `folder ${root}`;
    this.aclOverride = options.aclOverride;
  }

  /** The `source` prefix of this folder's documents. */
  async prefix(): Promise<string> {
    if (this.key === undefined) {
      const real = await realpath(this.root).catch((cause: unknown) => {
        throw new SourceError(
          'source_invalid',
          `${this.root} does not exist or cannot be read, so nothing was synced from it.`,
          {
            cause,
            hint: 'Check the path; a folder that is away (an unmounted disk) is never taken as empty.',
          },
        );
      });
      this.key = folderKey(real);
    }
    return folderSourcePrefix(this.key);
  }

  owns(document: { source: string }): boolean {
    return this.key !== undefined && parseFolderSource(document.source)?.key === this.key;
  }

  async list(_cursor: string | undefined, stored: ReadonlyMap<string, StoredDocument>): Promise<ConnectorPage> {
    const prefix = await this.prefix();
    const info = await stat(this.root).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new SourceError('source_invalid', `${this.root} is not a folder, so nothing was synced from it.`, {
        hint: 'Give a folder to sync.',
      });
    }
    const { files } = await discoverFiles([this.root], this.options.exclude ?? []);
    this.files = new Map();
    const items: ConnectorItem[] = [];
    const seen = new Set<string>();
    for (const found of files) {
      if (!loaderFor(found.path)) continue; // not a document type Evident reads
      const file: DiscoveredFile = { ...found, source: prefix + found.docId };
      this.files.set(file.docId, file);
      seen.add(file.path);
      items.push(await this.describe(file, stored.get(file.docId)));
    }
    for (const path of this.known.keys()) if (!seen.has(path)) this.known.delete(path);
    return { items, cursor: undefined };
  }

  async fetch(item: ConnectorItem): Promise<FetchResult> {
    const file = this.files.get(item.docId);
    return file ? { kind: 'file', file } : { kind: 'gone' };
  }

  /**
   * The file's version and ACL, read again only when its stamp moved. A file the store does not hold is added
   * whatever it holds, and one whose bytes changed is re-ingested whatever its ACL: only a file whose content is
   * the stored one is parsed here, for the ACL its front matter may carry.
   */
  private async describe(file: DiscoveredFile, stored: StoredDocument | undefined): Promise<ConnectorItem> {
    const base = { docId: file.docId, source: file.source ?? file.docId };
    if (!stored) return base;
    const stamp = await stampOf(file.path);
    const known = this.known.get(file.path);
    if (known && known.stamp === stamp && known.item.docId === file.docId) return known.item;
    let item: ConnectorItem;
    try {
      const { limits, logger } = this.options;
      const version = sha256(await readFileOnce(file.path, file.docId, limits.maxFileBytes));
      if (version !== stored.contentHash) return { ...base, version };
      const prepared = await prepareItem(
        { kind: 'file', file, path: file.path, docId: file.docId },
        this.aclOverride,
        limits,
        logger,
      );
      item = { ...base, version: prepared.contentHash, acl: prepared.acl };
    } catch (error) {
      const { code, message } = describeFailure(file.docId, error);
      // Not remembered: an unreadable file is tried again on the next listing.
      return { ...base, error: { code, message } };
    }
    // A stamp taken before the read: a change made during it moves the stamp, so the next listing reads it again.
    this.known.set(file.path, { stamp, item });
    return item;
  }
}

/** Size, modification and change times of a file and of its sidecar: what moves when either is written. */
async function stampOf(path: string): Promise<string> {
  const part = async (target: string) => {
    const info = await lstat(target, { bigint: true }).catch(() => undefined);
    return info ? `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}` : '-';
  };
  return `${await part(path)}|${await part(path + ACL_SIDECAR_SUFFIX)}`;
}
