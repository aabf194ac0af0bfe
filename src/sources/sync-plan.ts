import type { ConnectorItem, StoredDocument } from './connector.ts';

/** One step of a sync, as `--dry-run` prints it and `applySyncPlan` carries it out. */
export type SyncAction =
  | { action: 'add'; item: ConnectorItem }
  /** The content (or the recorded origin) changed: re-read, re-chunk, re-embed. */
  | { action: 'update'; item: ConnectorItem; stored: StoredDocument }
  /** Same content, another ACL: replaced in place, nothing re-embedded. */
  | { action: 'acl'; item: ConnectorItem; stored: StoredDocument; acl: string[] }
  /** The source cannot tell the version without a fetch (a web page): fetched conditionally. */
  | { action: 'check'; item: ConnectorItem; stored: StoredDocument }
  | { action: 'delete'; stored: StoredDocument }
  | { action: 'unchanged'; item: ConnectorItem }
  /** Listed but unreadable now: neither updated nor deleted. */
  | { action: 'failed'; item: ConnectorItem; error: { code: string; message: string } };

export interface PlanOptions {
  /** The run's ACL for every item (`--acl`), else each item's own. */
  aclOverride?: string[] | undefined;
  /** Delete owned documents the listing does not hold (a full listing); false for a single page (`ingest <url>`). */
  deleteUnlisted: boolean;
}

/**
 * What it takes to make the store match a listing: `owned` are the stored documents that came from this source,
 * `stored` every stored document by doc_id (a listed doc_id stored from elsewhere is taken over by an update).
 * Pure: the same listing and store give the same plan, in listing order, deletions last.
 */
export function planSync(
  items: readonly ConnectorItem[],
  owned: readonly StoredDocument[],
  stored: ReadonlyMap<string, StoredDocument>,
  options: PlanOptions,
): SyncAction[] {
  const actions: SyncAction[] = [];
  const listed = new Set<string>();
  const ownedIds = new Set(owned.map((doc) => doc.docId));
  for (const item of items) {
    if (listed.has(item.docId)) continue;
    listed.add(item.docId);
    const previous = stored.get(item.docId);
    if (item.error) {
      actions.push({ action: 'failed', item, error: item.error });
    } else if (item.deleted) {
      if (previous && ownedIds.has(item.docId)) actions.push({ action: 'delete', stored: previous });
    } else if (!previous) {
      actions.push({ action: 'add', item });
    } else if (item.version === undefined) {
      actions.push({ action: 'check', item, stored: previous });
    } else if (item.version !== previous.contentHash || item.source !== previous.source) {
      actions.push({ action: 'update', item, stored: previous });
    } else {
      const acl = options.aclOverride ?? item.acl;
      if (acl !== undefined && !sameEntries(acl, previous.acl))
        actions.push({ action: 'acl', item, stored: previous, acl });
      else actions.push({ action: 'unchanged', item });
    }
  }
  if (options.deleteUnlisted) {
    for (const doc of owned) if (!listed.has(doc.docId)) actions.push({ action: 'delete', stored: doc });
  }
  return actions;
}

export const sameEntries = (a: readonly string[], b: readonly string[]): boolean =>
  [...new Set(a)].sort().join('\n') === [...new Set(b)].sort().join('\n');
