import { decodePostings } from './posting-codec.ts';

interface Queryable {
  query<R extends object>(sql: string): Promise<{ rows: R[] }>;
}

/**
 * Chunk postings that differ from the chunks' own tsvectors (a term's frequency, a posting missing, one too many or
 * a row's length): what a half-done or interleaved write would leave. `schema` is the store's schema, quoted. For
 * the integrity checks of tests and of the crash and concurrency suites; it reads every chunk and block.
 */
export async function chunkPostingMismatches(
  client: Queryable,
  schema: string,
  limit = 5,
): Promise<{ pk: number; term: string }[]> {
  const actual = new Map<string, { tf: number; len: number }>();
  const chunks = await client.query<{ pk: string; term: string; tf: number; len: number }>(
    `SELECT x.pk, l.lexeme AS term, cardinality(l.positions) AS tf, x.keyword_length AS len FROM ${schema}.chunks x, unnest(x.keyword) l`,
  );
  for (const row of chunks.rows) actual.set(`${row.pk}\u0000${row.term}`, { tf: row.tf, len: row.len });
  const blocks = await client.query<{ term: string; first_pk: string; n: number; postings: Buffer }>(
    `SELECT term, first_pk, n, postings FROM ${schema}.keyword_blocks WHERE corpus = 1`,
  );
  const out: { pk: number; term: string }[] = [];
  const seen = new Set<string>();
  for (const block of blocks.rows) {
    const postings = decodePostings(block.postings, Number(block.first_pk));
    if (postings.length !== block.n) out.push({ pk: Number(block.first_pk), term: block.term });
    for (const { pk, tf, len } of postings) {
      const key = `${pk}\u0000${block.term}`;
      const want = actual.get(key);
      if (!want || want.tf !== tf || want.len !== len || seen.has(key)) out.push({ pk, term: block.term });
      seen.add(key);
    }
  }
  for (const key of actual.keys()) {
    if (seen.has(key)) continue;
    const [pk, term] = key.split('\u0000') as [string, string];
    out.push({ pk: Number(pk), term });
  }
  return out.slice(0, limit);
}
