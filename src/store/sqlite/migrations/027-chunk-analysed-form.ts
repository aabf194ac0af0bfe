import { backfillAnalysedForms } from '../analysed-forms.ts';
import type { Migration } from './migration.ts';

/**
 * Each chunk's analysed form beside it (text/analysed-form.ts: its dedupe shingle prefix and its index terms), written
 * by ingestion in the chunk's own INSERT, so a search's dedupe and offline rerank read no candidate's text. An
 * existing store's chunks are filled from their text, heading path and document title, as ingestion analyses them.
 */
export const chunkAnalysedForm: Migration = {
  version: 27,
  name: 'chunk-analysed-form',
  up: (db) => {
    db.exec('ALTER TABLE chunks ADD COLUMN analysed BLOB');
    backfillAnalysedForms(db);
  },
};
