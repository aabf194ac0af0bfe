import type { PostgresMigration } from './migration.ts';

/** Where a chunk's table rows are printed (`RowRegion[]`): a citation of a row marks its cells on the page. */
export const chunkRegions: PostgresMigration = {
  version: 16,
  name: 'chunk-regions',
  up: () => 'ALTER TABLE chunks ADD COLUMN regions jsonb;',
};
