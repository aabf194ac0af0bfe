import { initialSchema } from './001-initial.ts';
import { ftsVocabulary } from './002-fts-vocabulary.ts';
import { memories } from './003-memories.ts';
import { runsSchema } from './004-runs.ts';
import { apiKeys } from './005-api-keys.ts';
import { runEvents } from './006-run-events.ts';
import { documentExtras } from './007-document-extras.ts';
import { runCancel } from './008-run-cancel.ts';
import { runLease } from './009-run-lease.ts';
import { auditLog } from './010-audit-log.ts';
import { documentFiles } from './011-document-files.ts';
import { auditChain } from './012-audit-chain.ts';
import { documentParent } from './013-document-parent.ts';
import { tableDescription } from './014-table-description.ts';
import { chunkRegions } from './015-chunk-regions.ts';
import { feedback } from './016-feedback.ts';
import { assistants } from './017-assistants.ts';
import { runQueue } from './018-run-queue.ts';
import { crons } from './019-crons.ts';
import { runWebhooks } from './020-run-webhooks.ts';
import type { Migration } from './migration.ts';
import { storeItems } from './021-store-items.ts';
import { storeItemTerms } from './022-store-item-terms.ts';
import { sessions } from './023-sessions.ts';
import { directory } from './024-directory.ts';
import { keywordPostings } from './025-keyword-postings.ts';
import { keywordRecent } from './026-keyword-recent.ts';
import { chunkAnalysedForm } from './027-chunk-analysed-form.ts';

export type { Migration } from './migration.ts';

/** Every schema step in order. Append only: a released migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [
  initialSchema,
  ftsVocabulary,
  memories,
  runsSchema,
  apiKeys,
  runEvents,
  documentExtras,
  runCancel,
  runLease,
  auditLog,
  documentFiles,
  auditChain,
  documentParent,
  tableDescription,
  chunkRegions,
  feedback,
  assistants,
  runQueue,
  crons,
  runWebhooks,
  storeItems,
  storeItemTerms,
  sessions,
  directory,
  keywordPostings,
  keywordRecent,
  chunkAnalysedForm,
];
