import type { PostgresMigration } from './migration.ts';

/**
 * What a document states about itself (`metadata`: an e-mail's headers, as a JSON object of text values) and the
 * document it was found inside (`parent_doc_id`: an attachment's message). Children are found by their parent when it
 * is replaced, deleted or given a new ACL, so the column is indexed.
 */
export const documentParent: PostgresMigration = {
  version: 14,
  name: 'document-parent',
  up: () => `
    ALTER TABLE documents ADD COLUMN metadata jsonb;
    ALTER TABLE documents ADD COLUMN parent_doc_id text;
    CREATE INDEX documents_parent ON documents (parent_doc_id) WHERE parent_doc_id IS NOT NULL;
  `,
};
