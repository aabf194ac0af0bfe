import type { PostgresMigration } from './migration.ts';

/**
 * Chapter summaries and quotes of a document version, each keyword-searchable like chunks (their own corpora in
 * the BM25 statistics). `document_extras` marks a version whose extras were computed. All go with the document.
 */
export const documentExtrasSchema: PostgresMigration = {
  version: 4,
  name: 'document-extras',
  up: () => `
    CREATE TABLE document_extras (
      doc_pk bigint PRIMARY KEY REFERENCES documents(pk) ON DELETE CASCADE,
      summary_method text NOT NULL,
      computed_at timestamptz NOT NULL
    );

    CREATE TABLE chapter_summaries (
      pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      doc_pk bigint NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
      chapter_ordinal integer NOT NULL,
      title text NOT NULL,
      text text NOT NULL,
      method text NOT NULL,
      chunk_ids text[] NOT NULL DEFAULT '{}',
      keyword tsvector NOT NULL,
      keyword_length integer NOT NULL,
      UNIQUE (doc_pk, chapter_ordinal)
    );
    CREATE INDEX chapter_summaries_keyword ON chapter_summaries USING gin (keyword);

    CREATE TABLE quotes (
      pk bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      doc_pk bigint NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
      ordinal integer NOT NULL,
      chunk_id text NOT NULL,
      text text NOT NULL,
      keyword tsvector NOT NULL,
      keyword_length integer NOT NULL,
      UNIQUE (doc_pk, ordinal)
    );
    CREATE INDEX quotes_keyword ON quotes USING gin (keyword);
  `,
};
