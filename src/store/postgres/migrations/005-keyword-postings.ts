import type { PostgresMigration } from './migration.ts';

/**
 * Term postings (term → row, term frequency) per keyword corpus: BM25 reads the postings of the query's terms
 * instead of unnesting every candidate's tsvector, which cost a second per query at SciFact's size. The tsvector
 * stays the row's own record of its terms (and matches phrases). `term` sorts bytewise so a prefix is a range;
 * the key includes `tf`, so scoring reads the index alone.
 * Rows stored before are indexed from their tsvectors.
 */
export const keywordPostings: PostgresMigration = {
  version: 5,
  name: 'keyword-postings',
  up: () => `
    CREATE TABLE keyword_postings (
      corpus smallint NOT NULL,
      term text COLLATE "C" NOT NULL,
      pk bigint NOT NULL,
      tf integer NOT NULL,
      PRIMARY KEY (corpus, term, pk) INCLUDE (tf)
    );
    INSERT INTO keyword_postings (corpus, term, pk, tf)
      SELECT 1, l.lexeme, x.pk, cardinality(l.positions) FROM chunks x, unnest(x.keyword) l
      UNION ALL SELECT 2, l.lexeme, x.pk, cardinality(l.positions) FROM chapter_summaries x, unnest(x.keyword) l
      UNION ALL SELECT 3, l.lexeme, x.pk, cardinality(l.positions) FROM quotes x, unnest(x.keyword) l;
  `,
};
