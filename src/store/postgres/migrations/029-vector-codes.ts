import type { PostgresMigration } from './migration.ts';

/**
 * The column of a vector's int8 code (vector-code-bytes.ts: the scale as float4, then a byte a dimension). PLAIN, so
 * it stays in the row uncompressed and the row's vector, not the code, is what PostgreSQL compresses when the row is
 * too long. Also run by `createVectorTable` (document-writes.ts), which makes the table anew.
 */
export const VECTOR_CODE_COLUMN = `
  ALTER TABLE chunk_vectors ADD COLUMN code bytea;
  ALTER TABLE chunk_vectors ALTER COLUMN code SET STORAGE PLAIN;
`;

/**
 * Migration 29: each vector's int8 code stored beside it (`chunk_vectors.code`), written by the writers from the
 * vector they insert, so a process that loads the codes (the vector channel's first search, or a new generation of
 * the log) reads 516 bytes a row instead of the 2 kB vector, and neither PostgreSQL decompresses the vectors nor the
 * process decodes and quantizes them (a new process's first search at 100k × 512: 11.5–14.0 s → 3.8–5.1 s at load
 * 15–16; docs/performance.md, PostgreSQL round 6).
 *
 * Rows already stored get their code here, computed as `quantize` computes it (the norm summed in the vector's order
 * in float8, the maximum magnitude, round half up of v · 127 / max, the scale rounded to float4), in one rewrite of
 * the table (95 s at 100k at load 11; the table 89 → 150 MiB). A row left without a code (written by a process of an
 * older version) is read as its vector and quantized by the loading process, which gives the same bytes.
 */
export const vectorCodes: PostgresMigration = {
  version: 29,
  name: 'vector-codes',
  up: () => `
    DO $$
    BEGIN
      IF to_regclass('chunk_vectors') IS NULL THEN RETURN; END IF;
      ${VECTOR_CODE_COLUMN}
      CREATE FUNCTION vector_code_29(e vector) RETURNS bytea LANGUAGE sql IMMUTABLE AS $f$
        SELECT CASE WHEN s.norm = 0 THEN float4send(0::float4) || decode(repeat('00', s.n), 'hex')
          ELSE float4send((s.maxabs / 127 / sqrt(s.norm))::float4) || (
            SELECT decode(string_agg(lpad(to_hex(floor(x.v * (127 / s.maxabs) + 0.5)::int & 255), 2, '0'), '' ORDER BY x.i), 'hex')
            FROM unnest(e::real[]) WITH ORDINALITY AS x(v, i))
          END
        FROM (SELECT sum(a.v::float8 * a.v::float8 ORDER BY a.i) AS norm, max(abs(a.v::float8)) AS maxabs, count(*)::int AS n
              FROM unnest(e::real[]) WITH ORDINALITY AS a(v, i)) s
      $f$;
      -- A rewrite of the table (a changed column type's USING), not an UPDATE: no dead copy of every row is left.
      ALTER TABLE chunk_vectors ALTER COLUMN code TYPE bytea USING vector_code_29(embedding);
      DROP FUNCTION vector_code_29(vector);
    END $$;
  `,
};
