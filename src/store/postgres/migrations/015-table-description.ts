import type { PostgresMigration } from './migration.ts';

/** A table's caption as its document gives it (a PDF's "Table 3: …"), shown to whoever writes SQL against it. */
export const tableDescription: PostgresMigration = {
  version: 15,
  name: 'table-description',
  up: () => 'ALTER TABLE doc_tables ADD COLUMN description text;',
};
