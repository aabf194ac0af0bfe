import type { PostgresMigration } from './migration.ts';

/**
 * Keyword postings packed into blocks: a row per term and up to 128 of its postings (posting-codec.ts: each posting
 * three varints, the row's pk as a delta from the previous one, the term frequency and the row's keyword length), in
 * place of a row per term and row. At 100k chunks the one-row-per-posting table and its index were 19.5M rows and
 * most of the store (about 100 bytes a posting); a block holds a posting in about four. `first_pk` (the first
 * posting's pk, from which the deltas start) keys a block within its term; `last_pk` lets a writer append without
 * reading the bytes; `min_pk`/`max_pk` find the blocks holding a deleted row. The ranked chunks are checked against
 * the principal filter through an index of their documents (`chunks_pk_doc`), without reading the chunk rows.
 * Existing postings are packed here, in term order, by the same encoding (a SQL function of this transaction's
 * session, dropped with it).
 */
export const postingBlocks: PostgresMigration = {
  version: 26,
  name: 'posting-blocks',
  up: () => `
    SET LOCAL work_mem = '256MB';
    SET LOCAL maintenance_work_mem = '512MB';
    CREATE FUNCTION pg_temp.evident_varint_long(v bigint) RETURNS bytea LANGUAGE sql IMMUTABLE AS $f$
      SELECT decode(string_agg(lpad(to_hex(((v >> (7 * i)) & 127) | CASE WHEN v >> (7 * (i + 1)) > 0 THEN 128 ELSE 0 END), 2, '0'), '' ORDER BY i), 'hex')
      FROM generate_series(0, 8) i WHERE i = 0 OR v >> (7 * i) > 0
    $f$;
    CREATE FUNCTION pg_temp.evident_varint(v bigint) RETURNS bytea LANGUAGE sql IMMUTABLE AS $f$
      SELECT CASE
        WHEN v < 128 THEN set_byte('\\x00'::bytea, 0, v::int)
        WHEN v < 16384 THEN set_byte(set_byte('\\x0000'::bytea, 0, ((v & 127) | 128)::int), 1, (v >> 7)::int)
        WHEN v < 2097152 THEN set_byte(set_byte(set_byte('\\x000000'::bytea, 0, ((v & 127) | 128)::int),
          1, (((v >> 7) & 127) | 128)::int), 2, (v >> 14)::int)
        ELSE pg_temp.evident_varint_long(v)
      END
    $f$;
    CREATE TABLE keyword_blocks (
      corpus smallint NOT NULL,
      term text COLLATE "C" NOT NULL,
      first_pk bigint NOT NULL,
      last_pk bigint NOT NULL,
      min_pk bigint NOT NULL,
      max_pk bigint NOT NULL,
      n integer NOT NULL,
      postings bytea NOT NULL
    );
    INSERT INTO keyword_blocks (corpus, term, first_pk, last_pk, min_pk, max_pk, n, postings)
      SELECT corpus, term, min(pk), max(pk), min(pk), max(pk), count(*)::int,
             string_agg(pg_temp.evident_varint(2 * (pk - prev)) || pg_temp.evident_varint(tf) || pg_temp.evident_varint(len),
                        ''::bytea ORDER BY pk)
      FROM (SELECT corpus, term, pk, tf, len, block,
                   coalesce(lag(pk) OVER (PARTITION BY corpus, term, block ORDER BY pk), pk) AS prev
            FROM (SELECT corpus, term, pk, tf, len,
                         (row_number() OVER (PARTITION BY corpus, term ORDER BY pk) - 1) / 128 AS block
                  FROM keyword_postings) numbered) p
      GROUP BY corpus, term, block
      ORDER BY 1, 2, 3;
    ALTER TABLE keyword_blocks ADD CONSTRAINT keyword_blocks_pkey PRIMARY KEY (corpus, term, first_pk);
    DROP TABLE keyword_postings;
    -- The principal filter checks the best-ranked chunks by pk: their documents come from the index alone.
    CREATE INDEX chunks_pk_doc ON chunks (pk) INCLUDE (doc_pk);
    DROP FUNCTION pg_temp.evident_varint(bigint);
    DROP FUNCTION pg_temp.evident_varint_long(bigint);
  `,
};
