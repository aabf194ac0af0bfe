import type { PostgresMigration } from './migration.ts';

/**
 * The triggers that log every write of `chunk_vectors`: each statement that inserts or deletes vectors takes the next
 * version (the state row stays locked until its transaction ends, so versions commit in order) and logs the rows it
 * touched under it; a statement that changes documents' ACLs logs their chunks (the processes hold each document's
 * ACL beside its rows' codes to pick candidates; the database checks it again when it ranks them). Also run by `createVectorTable` (document-writes.ts), which re-creates the table.
 */
const ACL_LOG_TRIGGER = `
  DROP TRIGGER IF EXISTS documents_log_acl ON documents;
  CREATE TRIGGER documents_log_acl AFTER UPDATE ON documents
    REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION vector_log_acl();
`;
export const VECTOR_LOG_TRIGGERS = `${ACL_LOG_TRIGGER}
  CREATE TRIGGER chunk_vectors_log_insert AFTER INSERT ON chunk_vectors
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION vector_log_write();
  CREATE TRIGGER chunk_vectors_log_delete AFTER DELETE ON chunk_vectors
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION vector_log_write();
`;

/**
 * Vectors inline in the table's rows (compressed where they compress) rather than in TOAST, where pgvector's type puts
 * them: the search reads 4 × limit of them by pk to rank its candidates, one heap tuple each instead of a TOAST index
 * lookup and two chunks (at 100k × 512: that statement 99 → 65 ms, 4,801 → 3,201 buffers, the table 273 → 89 MiB).
 * Metadata only: rows written before keep their TOAST copies until the table is rewritten (`VACUUM FULL`).
 */
export const VECTOR_STORAGE = 'ALTER TABLE chunk_vectors ALTER COLUMN embedding SET STORAGE MAIN;';

/** Versions of the log kept: a process whose codes are older than that loads them all again. */
export const VECTOR_LOG_KEPT_VERSIONS = 2000;

/**
 * Migration 28: the vector channel scans int8 codes of the vectors held in each process (vector-codes.ts) and
 * rescores its candidates with the float32 rows, so it finds what an exact scan finds (the HNSW walk found 0.25–0.27
 * of the exact top 100 at 100k chunks). The processes keep their codes current from a log of the vectors' writes
 * (`vector_log`, ordered by `vector_log_state.version`; the generation changes when the table is made anew). The HNSW
 * index, which the channel no longer reads, is dropped: pgvector's insertion into it cost 6.3 ms a vector, and it
 * took 132 MiB at 100k chunks. New vectors are stored inline (VECTOR_STORAGE).
 */
export const vectorLog: PostgresMigration = {
  version: 28,
  name: 'vector-log',
  up: () => `
    CREATE TABLE vector_log_state (
      only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      generation text NOT NULL,
      version bigint NOT NULL,
      kept_from bigint NOT NULL
    );
    INSERT INTO vector_log_state (generation, version, kept_from) VALUES (md5(random()::text || clock_timestamp()::text), 0, 1);
    CREATE TABLE vector_log (version bigint NOT NULL, chunk_pk bigint NOT NULL);
    CREATE INDEX vector_log_version ON vector_log (version);
    CREATE FUNCTION vector_log_write() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE v bigint;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM changed) THEN RETURN NULL; END IF;
      UPDATE vector_log_state SET version = version + 1 RETURNING version INTO v;
      INSERT INTO vector_log (version, chunk_pk) SELECT v, chunk_pk FROM changed;
      IF v % 500 = 0 AND v > ${VECTOR_LOG_KEPT_VERSIONS} THEN
        DELETE FROM vector_log WHERE version <= v - ${VECTOR_LOG_KEPT_VERSIONS};
        UPDATE vector_log_state SET kept_from = v - ${VECTOR_LOG_KEPT_VERSIONS} + 1;
      END IF;
      RETURN NULL;
    END $$;
    CREATE FUNCTION vector_log_acl() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE v bigint;
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM after_rows n JOIN before_rows o ON o.pk = n.pk WHERE n.acl IS DISTINCT FROM o.acl)
      THEN RETURN NULL; END IF;
      UPDATE vector_log_state SET version = version + 1 RETURNING version INTO v;
      INSERT INTO vector_log (version, chunk_pk)
        SELECT v, c.pk FROM after_rows n JOIN before_rows o ON o.pk = n.pk JOIN chunks c ON c.doc_pk = n.pk
        WHERE n.acl IS DISTINCT FROM o.acl;
      RETURN NULL;
    END $$;
    -- Every store logs ACL changes, whether or not its vector table is made yet: a store is made the same way
    -- whatever it went through (the test schema pool compares them).
    ${ACL_LOG_TRIGGER}
    DO $$
    BEGIN
      IF to_regclass('chunk_vectors') IS NULL THEN RETURN; END IF;
      ${VECTOR_LOG_TRIGGERS}
      DROP INDEX IF EXISTS chunk_vectors_hnsw;
      ${VECTOR_STORAGE}
    END $$;
  `,
};
