import type { PostgresMigration } from './migration.ts';

/**
 * The original file of an uploaded document version (a folder's files are read from the folder and keep no row).
 * One row per document row: a new version replaces it and a deletion removes it by ON DELETE CASCADE, in the
 * version's transaction. Stored EXTERNAL (out of line, uncompressed): PDFs and Office files are compressed already,
 * and the length is then read without reading the bytes.
 */
export const documentFilesSchema: PostgresMigration = {
  version: 10,
  name: 'document-files',
  up: () => `
    CREATE TABLE document_files (
      doc_pk bigint PRIMARY KEY REFERENCES documents(pk) ON DELETE CASCADE,
      bytes bytea NOT NULL
    );
    ALTER TABLE document_files ALTER COLUMN bytes SET STORAGE EXTERNAL;
  `,
};
