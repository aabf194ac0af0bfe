import type { Migration } from './migration.ts';

/** A table's caption as its document gives it (a PDF's "Table 3: …"), shown to whoever writes SQL against it. */
export const tableDescription: Migration = {
  version: 14,
  name: 'table-description',
  up: (db) => {
    db.exec('ALTER TABLE doc_tables ADD COLUMN description TEXT');
  },
};
