import type { Migration } from './migration.ts';

/** Where a chunk's table rows are printed (`RowRegion[]` as JSON): a citation of a row marks its cells on the page. */
export const chunkRegions: Migration = {
  version: 15,
  name: 'chunk-regions',
  up: (db) => {
    db.exec('ALTER TABLE chunks ADD COLUMN regions TEXT');
  },
};
