import { documentsSchema } from './001-documents.ts';
import { principalsSchema } from './002-principals.ts';
import { runsSchema } from './003-runs.ts';
import { documentExtrasSchema } from './004-document-extras.ts';
import { keywordPostings } from './005-keyword-postings.ts';
import { runCancel } from './006-run-cancel.ts';
import { runLease } from './007-run-lease.ts';
import { postingsLengths } from './008-postings-lengths.ts';
import { auditLogSchema } from './009-audit-log.ts';
import { documentFilesSchema } from './010-document-files.ts';
import { tableRoles } from './011-table-roles.ts';
import { auditChain } from './012-audit-chain.ts';
import { aclEpoch } from './013-acl-epoch.ts';
import { documentParent } from './014-document-parent.ts';
import { tableDescription } from './015-table-description.ts';
import { chunkRegions } from './016-chunk-regions.ts';
import { feedbackSchema } from './017-feedback.ts';
import { assistants } from './018-assistants.ts';
import { runQueue } from './019-run-queue.ts';
import { cronsSchema } from './020-crons.ts';
import { runWebhooks } from './021-run-webhooks.ts';
import type { PostgresMigration } from './migration.ts';
import { storeItems } from './022-store-items.ts';
import { storeItemTerms } from './023-store-item-terms.ts';
import { sessions } from './024-sessions.ts';
import { directory } from './025-directory.ts';
import { postingBlocks } from './026-posting-blocks.ts';
import { halfvecIndex } from './027-halfvec-index.ts';
import { vectorLog } from './028-vector-log.ts';
import { vectorCodes } from './029-vector-codes.ts';
import { postingAppends } from './030-posting-appends.ts';

export { schemaNames, type PostgresMigration, type SchemaNames } from './migration.ts';

/** Every schema step in order. Append only: a released migration is never edited. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  documentsSchema,
  principalsSchema,
  runsSchema,
  documentExtrasSchema,
  keywordPostings,
  runCancel,
  runLease,
  postingsLengths,
  auditLogSchema,
  documentFilesSchema,
  tableRoles,
  auditChain,
  aclEpoch,
  documentParent,
  tableDescription,
  chunkRegions,
  feedbackSchema,
  assistants,
  runQueue,
  cronsSchema,
  runWebhooks,
  storeItems,
  storeItemTerms,
  sessions,
  directory,
  postingBlocks,
  halfvecIndex,
  vectorLog,
  vectorCodes,
  postingAppends,
];
