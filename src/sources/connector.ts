import type { DiscoveredFile } from '../ingest/discover.ts';

/**
 * A connector: one source of documents (a folder, a web site; later S3, Confluence, Google Drive) that a sync
 * makes the store match. A connector only reads its source; `syncSource` plans and applies the changes, so an
 * adapter is two calls:
 *
 * - `list(cursor)` pages through what the source holds now. Each item names a document (`docId`, `source`) and,
 *   when the source knows them without fetching the content, its `version` (the SHA-256 of the content, the store's
 *   `content_hash`) and `acl`. A page returns the next `cursor`, `undefined` after the last page. An item may be
 *   `deleted` (a source with change feeds) or carry an `error` (it exists but cannot be read now: it is neither
 *   updated nor deleted).
 * - `fetch(item)` returns the bytes a loader reads, as a file (a temporary one for remote sources), or says that the
 *   stored version is still current (`not_modified`, an HTTP 304) or that the item is `gone`.
 *
 * `owns(document)` says which stored documents came from this source (by their `source`), so a sync deletes only
 * those, and never another root's.
 */
export interface Connector {
  /** Shown in plans and logs: `folder docs/`, `site http://127.0.0.1:8080`. */
  readonly label: string;
  /** An ACL every document of this source gets (`--acl`), overriding sidecars and front matter. */
  readonly aclOverride?: string[] | undefined;
  owns(document: { docId: string; source: string }): boolean;
  /**
   * `stored` holds the store's documents by doc_id, so a source can spare work the plan does not need: a document
   * the store does not hold is added whatever its version, so it needs no hash or ACL before it is fetched.
   */
  list(cursor: string | undefined, stored: ReadonlyMap<string, StoredDocument>): Promise<ConnectorPage>;
  fetch(item: ConnectorItem, stored: StoredDocument | undefined): Promise<FetchResult>;
  /** What the last listing left out on purpose (off the site's origin, disallowed by robots.txt), for the report. */
  readonly skipped?: readonly { url: string; reason: string }[];
  /** Ends what `fetch` left behind (temporary files) once the sync has ingested them. */
  close?(): Promise<void>;
}

export interface ConnectorItem {
  docId: string;
  /** What readers see as the document's origin, and what `owns` recognises. */
  source: string;
  /** SHA-256 of the content when the source knows it without a fetch; undefined: only a fetch can tell. */
  version?: string | undefined;
  /** The ACL the document has now, when the source knows it without a fetch. */
  acl?: string[] | undefined;
  deleted?: boolean;
  /** The item is there but unreadable now: its stored version is kept as it is. */
  error?: { code: string; message: string } | undefined;
}

export interface ConnectorPage {
  items: ConnectorItem[];
  cursor: string | undefined;
}

/** The stored version of a document, as a sync compares it. */
export interface StoredDocument {
  docId: string;
  source: string;
  contentHash: string;
  acl: string[];
}

export type FetchResult =
  | { kind: 'file'; file: DiscoveredFile }
  | { kind: 'not_modified' }
  | { kind: 'gone' }
  | { kind: 'failed'; error: { code: string; message: string } };
