import type { PostgresMigration } from './migration.ts';

/**
 * Documents, chunks, chapters, ingested-table registry, keyword statistics, embedding cache and users.
 *
 * - ACL entries are an array on the document (GIN-indexed): a document without entries is public.
 * - `keyword` is a tsvector of Evident's analysed terms with positions (see keyword-index.ts), GIN-indexed;
 *   `keyword_length` and `keyword_terms`/`keyword_totals` are the BM25 statistics, per corpus.
 * - Vectors are not here: their dimension comes from the first embedder that writes (`chunk_vectors`, created then).
 * - Ingested tables live in a schema of their own, readable by a role that may read nothing else.
 */
export const documentsSchema: PostgresMigration = {
  version: 1,
  name: 'documents',
  up: ({ tables, reader }) => `
    CREATE TABLE store_meta (
      key text PRIMARY KEY,
      value jsonb NOT NULL
    );
    INSERT INTO store_meta (key, value) VALUES ('embedder', 'null');

    CREATE TABLE documents (
      pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      doc_id text NOT NULL UNIQUE,
      source text NOT NULL,
      title text NOT NULL,
      type text NOT NULL,
      content_hash text NOT NULL,
      bytes bigint NOT NULL,
      tags text[] NOT NULL DEFAULT '{}',
      page_count integer,
      chunk_count integer NOT NULL,
      acl text[] NOT NULL DEFAULT '{}',
      ingested_at timestamptz NOT NULL
    );
    CREATE INDEX documents_acl ON documents USING gin (acl);

    CREATE TABLE chunks (
      pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id text NOT NULL UNIQUE,
      doc_pk bigint NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
      ordinal integer NOT NULL,
      text text NOT NULL,
      heading_path text[] NOT NULL DEFAULT '{}',
      page integer,
      start_offset integer NOT NULL,
      end_offset integer NOT NULL,
      keyword tsvector NOT NULL,
      keyword_length integer NOT NULL
    );
    CREATE INDEX chunks_doc ON chunks (doc_pk, ordinal);
    CREATE INDEX chunks_keyword ON chunks USING gin (keyword);

    CREATE TABLE chapters (
      doc_pk bigint NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
      ordinal integer NOT NULL,
      title text NOT NULL,
      heading_path text[] NOT NULL DEFAULT '{}',
      start_offset integer NOT NULL,
      end_offset integer NOT NULL,
      page integer,
      PRIMARY KEY (doc_pk, ordinal)
    );

    CREATE TABLE doc_tables (
      pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      doc_pk bigint NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
      ordinal integer NOT NULL,
      title text NOT NULL,
      sql_name text NOT NULL UNIQUE,
      columns jsonb NOT NULL,
      row_count integer NOT NULL
    );
    CREATE INDEX doc_tables_doc ON doc_tables (doc_pk, ordinal);

    CREATE TABLE keyword_terms (
      corpus smallint NOT NULL,
      term text NOT NULL,
      df bigint NOT NULL,
      PRIMARY KEY (corpus, term)
    );
    CREATE TABLE keyword_totals (
      corpus smallint PRIMARY KEY,
      rows bigint NOT NULL,
      tokens bigint NOT NULL
    );
    INSERT INTO keyword_totals (corpus, rows, tokens) VALUES (1, 0, 0), (2, 0, 0), (3, 0, 0);

    CREATE TABLE embedding_cache (
      embedder_id text NOT NULL,
      content_hash text NOT NULL,
      vector bytea NOT NULL,
      PRIMARY KEY (embedder_id, content_hash)
    );

    CREATE TABLE users (
      name text PRIMARY KEY,
      groups text[] NOT NULL DEFAULT '{}',
      roles text[] NOT NULL DEFAULT '{member}',
      created_at timestamptz NOT NULL
    );

    CREATE SCHEMA "${tables}";
    DO $$ BEGIN
      CREATE ROLE "${reader}" NOLOGIN;
    EXCEPTION WHEN duplicate_object THEN NULL;
    END $$;
    GRANT "${reader}" TO CURRENT_USER;
    GRANT USAGE ON SCHEMA "${tables}" TO "${reader}";
  `,
};
