/** SQL that undoes migration 30 (the varint function, the keyword blocks' fillfactor). */
export const BEFORE_POSTING_APPENDS = `
DROP FUNCTION IF EXISTS evident_varint(bigint);
DO $$
BEGIN
  IF to_regclass('keyword_blocks') IS NOT NULL THEN
    ALTER TABLE keyword_blocks RESET (fillfactor);
  END IF;
END $$;
`;

/** SQL that undoes migration 29 (each vector's int8 code stored beside it): the vectors alone again. Migration 30 is undone first. */
export const BEFORE_VECTOR_CODES = `${BEFORE_POSTING_APPENDS}
DO $$
BEGIN
  IF to_regclass('chunk_vectors') IS NOT NULL THEN
    ALTER TABLE chunk_vectors DROP COLUMN IF EXISTS code;
  END IF;
END $$;
`;

/**
 * SQL that undoes migration 28 (the vector log that processes keep their int8 codes current from): no log, and the
 * HNSW index over half-precision copies of migration 27 again. Migration 29 is undone first.
 */
export const BEFORE_VECTOR_LOG = `${BEFORE_VECTOR_CODES}
DO $$
DECLARE dimension integer;
BEGIN
  IF to_regclass('chunk_vectors') IS NOT NULL THEN
    DROP TRIGGER IF EXISTS chunk_vectors_log_insert ON chunk_vectors;
    DROP TRIGGER IF EXISTS chunk_vectors_log_delete ON chunk_vectors;
    SELECT (value->>'dimension')::integer INTO dimension FROM store_meta WHERE key = 'embedder';
    IF dimension IS NOT NULL AND to_regclass('chunk_vectors_hnsw') IS NULL THEN
      EXECUTE format('CREATE INDEX chunk_vectors_hnsw ON chunk_vectors USING hnsw ((embedding::public.halfvec(%s)) public.halfvec_cosine_ops)', dimension);
    END IF;
  END IF;
END $$;
DROP TRIGGER IF EXISTS documents_log_acl ON documents;
DROP FUNCTION vector_log_write();
DROP FUNCTION vector_log_acl();
DROP TABLE vector_log;
DROP TABLE vector_log_state;
`;

/** SQL that undoes migration 27 (the HNSW index over half-precision copies of the vectors): the float32 index again. Migration 28 is undone first. */
export const BEFORE_HALFVEC_INDEX = `${BEFORE_VECTOR_LOG}
DO $$
BEGIN
  IF to_regclass('chunk_vectors') IS NOT NULL THEN
    DROP INDEX IF EXISTS chunk_vectors_hnsw;
    -- The extension's objects are in public where these tests run, as the memories table below assumes.
    CREATE INDEX chunk_vectors_hnsw ON chunk_vectors USING hnsw (embedding public.vector_cosine_ops);
  END IF;
END $$;
`;

/**
 * SQL that undoes migration 26 (keyword postings packed into blocks): a row per term and row again, as migrations 5
 * and 8 made them, from the rows' tsvectors and keyword lengths. Migration 27 is undone first.
 */
export const BEFORE_POSTING_BLOCKS = `${BEFORE_HALFVEC_INDEX}
CREATE TABLE keyword_postings (
  corpus smallint NOT NULL,
  term text COLLATE "C" NOT NULL,
  pk bigint NOT NULL,
  tf integer NOT NULL,
  len integer NOT NULL,
  PRIMARY KEY (corpus, term, pk) INCLUDE (tf, len)
);
INSERT INTO keyword_postings (corpus, term, pk, tf, len)
  SELECT 1, l.lexeme, x.pk, cardinality(l.positions), x.keyword_length FROM chunks x, unnest(x.keyword) l
  UNION ALL SELECT 2, l.lexeme, x.pk, cardinality(l.positions), x.keyword_length FROM chapter_summaries x, unnest(x.keyword) l
  UNION ALL SELECT 3, l.lexeme, x.pk, cardinality(l.positions), x.keyword_length FROM quotes x, unnest(x.keyword) l;
DROP TABLE keyword_blocks;
DROP INDEX chunks_pk_doc;
`;

/** SQL that undoes the sign-in migrations (24: sessions and sign-in states; 25: the directory) and the newer ones, newest first. */
export const BEFORE_IDENTITY_MIGRATIONS = `${BEFORE_POSTING_BLOCKS}
DROP TABLE directory_groups;
DROP INDEX users_groups, users_external_id, users_name_nocase;
ALTER TABLE users DROP COLUMN active, DROP COLUMN scim_id, DROP COLUMN external_id, DROP COLUMN updated_at;
DROP TABLE sign_in_states;
DROP TABLE sessions;
`;

/**
 * SQL that takes a PostgreSQL store's schema back to before migration 17: no feedback (17), assistants (18), run
 * queue (19), crons (20) or run webhooks (21), memories in their own table rather than store items (22, 23), no
 * sessions or sign-in states (24) and no directory (25: users' active flag and SCIM ids, directory groups). Run with
 * `search_path` set to the store's schema, before undoing older steps, by the tests that open a store of an older
 * schema and check that it upgrades in place. A new migration adds its undoing here.
 */
export const BEFORE_PLATFORM_MIGRATIONS = `${BEFORE_IDENTITY_MIGRATIONS}
DROP TABLE feedback;
DROP TABLE assistant_versions;
DROP TABLE assistants;
ALTER TABLE runs DROP COLUMN assistant_id, DROP COLUMN assistant_version;
ALTER TABLE runs DROP COLUMN multitask_strategy, DROP COLUMN queued_request;
DROP INDEX runs_pending;
DROP TABLE cron_ticks;
DROP TABLE crons;
DROP TABLE run_webhooks;
DROP TABLE store_items;
DROP TABLE store_namespaces;
CREATE TABLE memories (
  pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text NOT NULL UNIQUE,
  user_name text NOT NULL,
  text text NOT NULL,
  vector public.vector NOT NULL,
  source text,
  idempotency_key text,
  created_at timestamptz NOT NULL,
  UNIQUE (user_name, idempotency_key)
);
CREATE INDEX memories_user ON memories (user_name, pk);
`;
