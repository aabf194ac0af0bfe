import type { Migration } from './migration.ts';

/**
 * The first schema. The vector table (sqlite-vec `vec0`) is not here: its dimension comes from the first
 * embedder that writes, so it is created then (see `ensureVectorTable`).
 *
 * The FTS5 table is contentless (the caller's analysed keyword text is only needed for the index) and keeps each
 * given term as one token: `unicode61` splits on anything that is not a letter, digit or one of `_ $ .`, and the
 * caller has already separated terms by spaces and lowercased them; `remove_diacritics 0` keeps `café` ≠ `cafe`.
 */
export const initialSchema: Migration = {
  version: 1,
  name: 'initial',
  up: (db) => {
    db.exec(`
      CREATE TABLE store_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
      INSERT INTO store_meta (key, value) VALUES ('generation', '0');

      CREATE TABLE documents (
        pk INTEGER PRIMARY KEY,
        doc_id TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL,
        title TEXT NOT NULL,
        type TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        page_count INTEGER,
        chunk_count INTEGER NOT NULL DEFAULT 0,
        ingested_at TEXT NOT NULL
      ) STRICT;

      -- One row per ACL entry; a document without rows is public.
      CREATE TABLE document_acl (
        doc_pk INTEGER NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
        entry TEXT NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (doc_pk, entry)
      ) WITHOUT ROWID, STRICT;
      CREATE INDEX document_acl_entry ON document_acl(entry, doc_pk);

      CREATE TABLE chunks (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        doc_pk INTEGER NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        text TEXT NOT NULL,
        heading_path TEXT NOT NULL DEFAULT '[]',
        page INTEGER,
        start_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX chunks_doc ON chunks(doc_pk, ordinal);

      CREATE TABLE chapters (
        doc_pk INTEGER NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        title TEXT NOT NULL,
        heading_path TEXT NOT NULL DEFAULT '[]',
        start_offset INTEGER NOT NULL,
        end_offset INTEGER NOT NULL,
        page INTEGER,
        PRIMARY KEY (doc_pk, ordinal)
      ) WITHOUT ROWID, STRICT;

      -- Registry of the real SQL tables made from CSV/XLSX; the tables themselves are created per document.
      CREATE TABLE doc_tables (
        pk INTEGER PRIMARY KEY,
        doc_pk INTEGER NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
        ordinal INTEGER NOT NULL,
        title TEXT NOT NULL,
        sql_name TEXT NOT NULL UNIQUE,
        columns TEXT NOT NULL,
        row_count INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX doc_tables_doc ON doc_tables(doc_pk, ordinal);

      CREATE VIRTUAL TABLE chunk_fts USING fts5(
        keyword_text,
        content = '',
        contentless_delete = 1,
        tokenize = "unicode61 remove_diacritics 0 tokenchars '_$.'"
      );

      CREATE TABLE embedding_cache (
        embedder_id TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (embedder_id, content_hash)
      ) WITHOUT ROWID, STRICT;

      CREATE TABLE users (
        name TEXT PRIMARY KEY,
        groups TEXT NOT NULL DEFAULT '[]',
        roles TEXT NOT NULL DEFAULT '["member"]',
        created_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
