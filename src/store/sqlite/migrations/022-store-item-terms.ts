import type { Migration } from './migration.ts';

/**
 * A store item's search index keeps its distinct keyword terms (as `text/analyzer.ts` indexes them, joined by spaces),
 * written with the item, so a ranked search reads them instead of analysing every candidate's text again. Rows from
 * before have none and are analysed when ranked, as they were.
 */
export const storeItemTerms: Migration = {
  version: 22,
  name: 'store-item-terms',
  up: (db) => {
    db.exec('ALTER TABLE store_items ADD COLUMN terms TEXT');
  },
};
