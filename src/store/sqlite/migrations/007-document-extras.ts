import type { Migration } from './migration.ts';

/**
 * Chapter summaries and quotes, each with a contentless FTS5 index tokenized like `chunk_fts` (the caller gives
 * analysed terms). `document_extras` marks a version whose extras were computed, and how the summaries were made;
 * documents stored before this migration have no row until they are ingested again. Rows go with their document
 * by ON DELETE CASCADE; the FTS rows are removed by the store with them.
 */
export const documentExtras: Migration = {
  version: 7,
  name: 'document-extras',
  up: (db) => {
    db.exec(`
      CREATE TABLE document_extras (
        doc_pk INTEGER PRIMARY KEY REFERENCES documents(pk) ON DELETE CASCADE,
        summary_method TEXT NOT NULL,
        computed_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE chapter_summaries (
        pk INTEGER PRIMARY KEY,
        doc_pk INTEGER NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
        chapter_ordinal INTEGER NOT NULL,
        title TEXT NOT NULL,
        text TEXT NOT NULL,
        method TEXT NOT NULL,
        chunk_ids TEXT NOT NULL DEFAULT '[]',
        UNIQUE (doc_pk, chapter_ordinal)
      ) STRICT;

      CREATE TABLE quotes (
        pk INTEGER PRIMARY KEY,
        doc_pk INTEGER NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        chunk_id TEXT NOT NULL,
        text TEXT NOT NULL,
        UNIQUE (doc_pk, ordinal)
      ) STRICT;

      CREATE VIRTUAL TABLE summary_fts USING fts5(
        keyword_text,
        content = '',
        contentless_delete = 1,
        tokenize = "unicode61 remove_diacritics 0 tokenchars '_$.'"
      );
      CREATE VIRTUAL TABLE quote_fts USING fts5(
        keyword_text,
        content = '',
        contentless_delete = 1,
        tokenize = "unicode61 remove_diacritics 0 tokenchars '_$.'"
      );
    `);
  },
};
