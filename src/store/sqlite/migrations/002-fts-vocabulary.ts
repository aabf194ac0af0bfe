import type { Migration } from './migration.ts';

/**
 * Read access to the keyword index's document frequencies, so the keyword channel can leave out terms whose BM25
 * weight FTS5 clamps to ~0 (present in half the chunks or more) instead of scoring every chunk they match.
 */
export const ftsVocabulary: Migration = {
  version: 2,
  name: 'fts-vocabulary',
  up: (db) => {
    db.exec("CREATE VIRTUAL TABLE chunk_fts_vocab USING fts5vocab('chunk_fts', 'row')");
  },
};
