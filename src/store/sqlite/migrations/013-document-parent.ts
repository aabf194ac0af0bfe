import type { Migration } from './migration.ts';

/**
 * What a document states about itself (`metadata`, a JSON object of text values: an e-mail's headers) and the
 * document it was found inside (`parent_doc_id`: an attachment's message). Children are found by their parent when it
 * is replaced, deleted or given a new ACL, so the column is indexed.
 */
export const documentParent: Migration = {
  version: 13,
  name: 'document-parent',
  up: (db) => {
    db.exec(`
      ALTER TABLE documents ADD COLUMN metadata TEXT;
      ALTER TABLE documents ADD COLUMN parent_doc_id TEXT;
      CREATE INDEX documents_parent ON documents(parent_doc_id) WHERE parent_doc_id IS NOT NULL;
    `);
  },
};
