import type { PostgresMigration } from './migration.ts';

/** A store item's distinct keyword terms, written with it (see the SQLite migration). */
export const storeItemTerms: PostgresMigration = {
  version: 23,
  name: 'store-item-terms',
  up: () => 'ALTER TABLE store_items ADD COLUMN terms text;',
};
