import type { Migration } from './migration.ts';

/**
 * The keyword postings of the batches since the last merge, in the form of `keyword_blocks` (migration 025): a batch
 * writes its rows into this small table, and past a number of rows they are merged into `keyword_blocks` in one sorted
 * pass (`keyword-postings/postings-merge.ts`), so the big table takes each term's row once for many batches. The
 * ranking reads a term's blocks from both. An existing store starts with it empty: its postings are all merged.
 */
export const keywordRecent: Migration = {
  version: 26,
  name: 'keyword-recent',
  up: (db) => {
    db.exec(`
      CREATE TABLE keyword_recent (
        term TEXT NOT NULL,
        first_pk INTEGER NOT NULL,
        last_pk INTEGER NOT NULL,
        count INTEGER NOT NULL,
        max_tf INTEGER NOT NULL,
        min_length INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (term, first_pk)
      ) WITHOUT ROWID, STRICT;
    `);
  },
};
