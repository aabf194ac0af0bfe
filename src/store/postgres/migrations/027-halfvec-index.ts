import type { PostgresMigration } from './migration.ts';

/**
 * The chunks' HNSW index holds half-precision copies of the vectors (pgvector's `halfvec`, an expression index over
 * the float32 column), in place of float32 ones. The index is half the size (at 100k × 512 dimensions 130 MiB
 * instead of 260), so a walk reads half the pages and each distance half the bytes; a search ranks its candidates
 * by the float32 distance of the rows themselves (search.ts), so scores stay what they were. pgvector indexes
 * `halfvec` up to 4,000 dimensions where `vector` stops at 2,000. The index is rebuilt here when the store has
 * vectors (minutes at 100k: maintenance memory raised for this transaction so the graph is built in memory).
 */
export const halfvecIndex: PostgresMigration = {
  version: 27,
  name: 'halfvec-index',
  up: () => `
    SET LOCAL maintenance_work_mem = '1GB';
    DO $$
    DECLARE dimension integer;
    BEGIN
      IF to_regclass('chunk_vectors') IS NULL THEN RETURN; END IF;
      SELECT (value->>'dimension')::integer INTO dimension FROM store_meta WHERE key = 'embedder';
      -- Built beside the old index, which is dropped last: searches of processes still on the old schema go on
      -- during the build (CREATE INDEX blocks writes only; DROP INDEX locks the table until the commit).
      IF dimension IS NOT NULL THEN
        EXECUTE format('CREATE INDEX chunk_vectors_hnsw_half ON chunk_vectors USING hnsw ((embedding::halfvec(%s)) halfvec_cosine_ops)', dimension);
      END IF;
      DROP INDEX IF EXISTS chunk_vectors_hnsw;
      ALTER INDEX IF EXISTS chunk_vectors_hnsw_half RENAME TO chunk_vectors_hnsw;
    END $$;
  `,
};
