import { LOCAL_OPERATOR } from '../domain/index.ts';
import { SourceError } from '../errors/index.ts';
import type { DiscoveredFile } from '../ingest/discover.ts';
import type { Ingestor } from '../ingest/ingestor.ts';
import type { IngestOutcome } from '../ingest/ingest-progress.ts';
import type { Logger } from '../logging/logger.ts';
import type { DocumentStore } from '../store/ports/document-store.ts';
import type { Connector, ConnectorItem, StoredDocument } from './connector.ts';
import { planSync, sameEntries, type SyncAction } from './sync-plan.ts';

/** What one document of a sync came to. `acl` is an ACL replaced in place (nothing re-read or re-embedded). */
export type SyncStatus = 'added' | 'updated' | 'acl' | 'deleted' | 'unchanged' | 'failed';

export interface SyncOutcome {
  docId: string;
  status: SyncStatus;
  error?: { code: string; message: string };
}

export interface SyncReport {
  source: string;
  dryRun: boolean;
  /** The plan as listed (for a dry run, all there is). */
  plan: SyncAction[];
  outcomes: SyncOutcome[];
  /** Left out of the listing on purpose (see `Connector.skipped`). */
  skipped: { url: string; reason: string }[];
  added: number;
  updated: number;
  aclUpdated: number;
  deleted: number;
  unchanged: number;
  failed: number;
}

export interface SyncDeps {
  store: DocumentStore;
  ingestor: Ingestor;
  logger?: Logger;
  /** Share of the source's stored documents one sync may delete (`ingest.maxDeleteShare`). */
  maxDeleteShare: number;
}

export interface SyncOptions {
  dryRun?: boolean;
  /** Delete the source's stored documents it no longer lists (default true; false for `ingest <url>`). */
  deleteUnlisted?: boolean;
  /** Apply deletions beyond `maxDeleteShare`, and of everything when the source lists nothing (`--allow-mass-delete`). */
  allowMassDelete?: boolean;
}

/** Pages of one listing at most: a connector whose cursor never ends is a bug, not a source. */
const MAX_LIST_PAGES = 100_000;

/**
 * Makes the store match one source: lists it whole (a listing that fails changes nothing), plans against the
 * documents that came from it, and applies the plan — deletions, ACL-only changes in place, and the documents to
 * (re)read through the ingestor, which keeps its own change detection and bounds.
 */
export async function syncSource(connector: Connector, deps: SyncDeps, options: SyncOptions = {}): Promise<SyncReport> {
  const { store } = deps;
  // A document found inside another (an e-mail's attachment) is no item of any source: it is written, given its
  // ACL and deleted with the document that carries it, so a sync never plans it on its own.
  const all = (await store.listDocuments(LOCAL_OPERATOR))
    .filter((doc) => doc.parent === undefined)
    .map(
      (doc): StoredDocument => ({ docId: doc.docId, source: doc.source, contentHash: doc.contentHash, acl: doc.acl }),
    );
  const stored = new Map(all.map((doc) => [doc.docId, doc]));
  const items: ConnectorItem[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const listed = await connector.list(cursor, stored);
    items.push(...listed.items);
    cursor = listed.cursor;
    if (cursor === undefined) break;
  }
  const owned = all.filter((doc) => connector.owns(doc));
  const plan = planSync(items, owned, stored, {
    aclOverride: connector.aclOverride,
    deleteUnlisted: options.deleteUnlisted ?? true,
  });
  const report = (outcomes: SyncOutcome[]): SyncReport =>
    tally(connector.label, options.dryRun ?? false, plan, outcomes, [...(connector.skipped ?? [])]);
  if (options.dryRun) return report([]);
  if (!options.allowMassDelete)
    refuseMassDeletion(connector.label, items.length, owned.length, plan, deps.maxDeleteShare);
  try {
    return report(await apply(connector, deps, plan));
  } finally {
    await connector.close?.();
  }
}

/** Deletions a sync may always make, whatever the share: a small folder's rename is no mass deletion. */
const ALWAYS_DELETABLE = 2;

/**
 * A sync that would delete most of a source is more often a source that is away than a source that was emptied: an
 * unmounted disk leaves an empty folder, a broken site an empty sitemap. Such a sync changes nothing and fails.
 */
function refuseMassDeletion(
  label: string,
  listed: number,
  owned: number,
  plan: readonly SyncAction[],
  maxShare: number,
): void {
  const deletions = plan.filter((step) => step.action === 'delete').length;
  if (deletions === 0) return;
  const hint =
    'Check that the source is there (a mounted disk, a reachable site); if the documents are gone on purpose, run `evident sync --allow-mass-delete` once.';
  if (listed === 0)
    throw new SourceError(
      'source_unavailable',
      `${label} lists no documents, but ${owned} are stored from it: nothing was deleted (an unmounted disk looks like an empty folder).`,
      { hint },
    );
  if (deletions > Math.max(maxShare * owned, ALWAYS_DELETABLE))
    throw new SourceError(
      'source_unavailable',
      `${label}: the sync would delete ${deletions} of the ${owned} documents stored from it, more than ingest.maxDeleteShare (${maxShare}) allows: nothing was changed.`,
      { hint },
    );
}

async function apply(connector: Connector, deps: SyncDeps, plan: readonly SyncAction[]): Promise<SyncOutcome[]> {
  const { store, ingestor, logger } = deps;
  const outcomes: SyncOutcome[] = [];
  const files: DiscoveredFile[] = [];
  const fetchAndQueue = async (item: ConnectorItem, previous: StoredDocument | undefined) => {
    const fetched = await connector.fetch(item, previous);
    if (fetched.kind === 'file') return void files.push(fetched.file);
    if (fetched.kind === 'failed')
      return void outcomes.push({ docId: item.docId, status: 'failed', error: fetched.error });
    if (fetched.kind === 'gone') {
      if (previous && connector.owns(previous) && (await store.deleteDocument(item.docId)))
        outcomes.push({ docId: item.docId, status: 'deleted' });
      return;
    }
    // Not modified: the stored content is current; only the run's ACL may differ.
    const acl = connector.aclOverride ?? item.acl;
    if (
      previous &&
      acl !== undefined &&
      !sameEntries(acl, previous.acl) &&
      (await store.updateDocumentAcl(item.docId, previous.contentHash, acl))
    ) {
      outcomes.push({ docId: item.docId, status: 'acl' });
    } else {
      outcomes.push({ docId: item.docId, status: 'unchanged' });
    }
  };

  for (const step of plan) {
    switch (step.action) {
      case 'delete':
        if (await store.deleteDocument(step.stored.docId))
          outcomes.push({ docId: step.stored.docId, status: 'deleted' });
        break;
      case 'acl':
        // Against the version planned on: if it changed since, the document is read again instead.
        if (await store.updateDocumentAcl(step.item.docId, step.stored.contentHash, step.acl))
          outcomes.push({ docId: step.item.docId, status: 'acl' });
        else await fetchAndQueue(step.item, step.stored);
        break;
      case 'unchanged':
        outcomes.push({ docId: step.item.docId, status: 'unchanged' });
        break;
      case 'failed':
        outcomes.push({ docId: step.item.docId, status: 'failed', error: step.error });
        break;
      case 'add':
        await fetchAndQueue(step.item, undefined);
        break;
      default:
        await fetchAndQueue(step.item, step.stored);
    }
  }
  if (files.length > 0) {
    const acl = connector.aclOverride;
    const summary = await ingestor.ingestFiles(files, acl === undefined ? {} : { acl });
    for (const outcome of summary.outcomes) outcomes.push(fromIngest(outcome));
  }
  logger?.debug('sync: applied', { source: connector.label, steps: plan.length, ingested: files.length });
  return outcomes;
}

const fromIngest = (outcome: IngestOutcome): SyncOutcome =>
  outcome.status === 'failed'
    ? {
        docId: outcome.docId,
        status: 'failed',
        error: { code: outcome.error?.code ?? 'file_unreadable', message: outcome.error?.message ?? outcome.docId },
      }
    : { docId: outcome.docId, status: outcome.status };

function tally(
  source: string,
  dryRun: boolean,
  plan: SyncAction[],
  outcomes: SyncOutcome[],
  skipped: SyncReport['skipped'],
): SyncReport {
  const count = (status: SyncStatus) => outcomes.filter((o) => o.status === status).length;
  return {
    source,
    dryRun,
    plan,
    outcomes,
    skipped,
    added: count('added'),
    updated: count('updated'),
    aclUpdated: count('acl'),
    deleted: count('deleted'),
    unchanged: count('unchanged'),
    failed: count('failed'),
  };
}
