import type { Migration } from './migration.ts';

/**
 * The original file of an uploaded document version (a folder's files are read from the folder and keep no row).
 * One row per document row, so a new version (a new documents row) replaces it and a deletion removes it, by
 * ON DELETE CASCADE, in the transaction that writes or deletes the version.
 */
export const documentFiles: Migration = {
  version: 11,
  name: 'document-files',
  up: (db) => {
    db.exec(`
      CREATE TABLE document_files (
        doc_pk INTEGER PRIMARY KEY REFERENCES documents(pk) ON DELETE CASCADE,
        bytes BLOB NOT NULL
      ) STRICT;
    `);
  },
};
