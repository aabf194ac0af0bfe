import type { PostgresMigration } from './migration.ts';

/**
 * `evident_varint(v)`: a non-negative integer as an unsigned LEB128 varint, the bytes posting-codec.ts writes. With it
 * (and the inline form of `postingDeltaSql`) a writer appends a transaction's postings to a term's last block in the
 * statement that finds and locks the block: the client sends the postings after their first delta, and the server
 * writes that delta from the block's own `last_pk`, which the client no longer reads first
 * (keyword-block-appends.ts).
 */
export const POSTING_DELTA_FUNCTIONS = `
  CREATE FUNCTION evident_varint(v bigint) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $f$
  DECLARE
    out bytea := ''::bytea;
    rest bigint := v;
  BEGIN
    WHILE rest >= 128 LOOP
      out := out || set_byte('\\x00'::bytea, 0, ((rest & 127) | 128)::int);
      rest := rest >> 7;
    END LOOP;
    RETURN out || set_byte('\\x00'::bytea, 0, rest::int);
  END
  $f$;
`;

/**
 * A posting's pk delta `d` (an SQL expression) as the bytes posting-codec.ts writes: its zigzag as an unsigned LEB128
 * varint. Deltas whose zigzag is below 2^21 (three bytes; nearly every one) are built inline, larger ones by
 * `evident_varint`: a function call per row costs about as much as the rest of an append.
 */
export function postingDeltaSql(d: string): string {
  const z = `(CASE WHEN (${d}) >= 0 THEN (${d}) * 2 ELSE -(${d}) * 2 - 1 END)`;
  return `(CASE
    WHEN ${z} < 128 THEN set_byte('\\x00'::bytea, 0, ${z}::int)
    WHEN ${z} < 16384 THEN set_byte(set_byte('\\x0000'::bytea, 0, ((${z} & 127) | 128)::int), 1, (${z} >> 7)::int)
    WHEN ${z} < 2097152 THEN set_byte(set_byte(set_byte('\\x000000'::bytea, 0, ((${z} & 127) | 128)::int),
      1, (((${z} >> 7) & 127) | 128)::int), 2, (${z} >> 14)::int)
    ELSE evident_varint(${z})
  END)`;
}

/**
 * Migration 30: `evident_varint`, and room on `keyword_blocks`' pages (fillfactor 80) so that a block grown
 * by an append is rewritten on its own page (a HOT update, no new primary-key entry) more often; pages written from
 * now on keep it.
 */
export const postingAppends: PostgresMigration = {
  version: 30,
  name: 'posting-appends',
  up: () => `
    ${POSTING_DELTA_FUNCTIONS}
    ALTER TABLE keyword_blocks SET (fillfactor = 80);
  `,
};
