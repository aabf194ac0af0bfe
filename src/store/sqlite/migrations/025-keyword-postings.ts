import { backfillKeywordPostings } from '../keyword-postings/backfill.ts';
import type { Migration } from './migration.ts';

/**
 * The keyword channel's own postings beside `chunk_fts` (which still answers prefix and phrase terms): per term,
 * blocks of up to 128 chunks in pk order, each with its highest tf and lowest length for block-max pruning
 * (`keyword-postings/block-codec.ts`), and per document its distinct terms, so a removal rewrites only its blocks.
 * An existing store's postings are filled from what FTS5 indexed.
 */
export const keywordPostings: Migration = {
  version: 25,
  name: 'keyword-postings',
  up: (db) => {
    db.exec(`
      CREATE TABLE keyword_blocks (
        term TEXT NOT NULL,
        first_pk INTEGER NOT NULL,
        last_pk INTEGER NOT NULL,
        count INTEGER NOT NULL,
        max_tf INTEGER NOT NULL,
        min_length INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (term, first_pk)
      ) WITHOUT ROWID, STRICT;
      CREATE TABLE keyword_doc_terms (
        doc_pk INTEGER PRIMARY KEY,
        terms TEXT NOT NULL
      ) STRICT;
    `);
    backfillKeywordPostings(db);
  },
};
