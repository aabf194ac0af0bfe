import type { PoolClient } from 'pg';
import type { Corpus } from './keyword-index.ts';
import { postingDeltaSql } from './migrations/030-posting-appends.ts';
import { BLOCK_POSTINGS, encodePostings, type Posting } from './posting-codec.ts';

/**
 * A transaction's new postings written in ONE statement when it deletes no row (the common write: new documents).
 * Each term's first piece of up to `BLOCK_POSTINGS` postings is appended to the term's last block when that block has
 * room for all of it, the block found, locked and rewritten by the same statement; otherwise, and for the term's
 * further pieces, it becomes a new block. Before, the last blocks were read and locked by one statement (for their
 * `last_pk`, from which the appended bytes start) and rewritten by a second one, and new blocks took a third: the
 * lock alone was as costly as the rewrite (docs/performance.md, PostgreSQL round 7).
 *
 * The client encodes each piece as a block of its own (first delta 0 from its first pk) and sends the bytes after
 * that first delta; the server writes the delta from the block's `last_pk` (`postingDeltaSql`, migration 30),
 * so the bytes are exactly what reading the block first and appending would have written. The last blocks are locked
 * term by term in the terms' (collation "C") order before any is rewritten, the (term, first_pk) order every writer
 * of blocks locks in, so writers cannot deadlock on them. The lock reads the block's committed version, so a block
 * another writer filled meanwhile is left alone and the piece becomes a new block. The locked blocks are rewritten by
 * their row addresses (a TID scan): joined by key, a fresh store's stale statistics had the planner read every block
 * of the corpus for each statement. A block another writer rewrote after this statement's snapshot is locked in its
 * new version, which the snapshot does not see: it is left alone too, and the piece becomes a new block.
 */
export async function appendPostings(
  client: PoolClient,
  corpus: Corpus,
  appended: readonly (readonly [string, Posting[]])[],
): Promise<void> {
  const pieces: { term: string; postings: Posting[]; first: boolean }[] = [];
  for (const [term, list] of appended) {
    const sorted = [...list].sort((a, b) => a.pk - b.pk);
    for (let at = 0; at < sorted.length; at += BLOCK_POSTINGS)
      pieces.push({ term, postings: sorted.slice(at, at + BLOCK_POSTINGS), first: at === 0 });
  }
  if (pieces.length === 0) return;
  const pks = pieces.map((p) => p.postings.map((posting) => posting.pk));
  // The piece encoded from its own first pk starts with that posting's delta, 0 (one byte): cut off here. The pieces'
  // bytes travel as ONE bytea cut per row on the server: a bytea[] parameter goes as escaped hex text, and parsing it
  // was a fifth of the statement's time.
  const rests = pieces.map((p) => encodePostings(p.postings, (p.postings[0] as Posting).pk).subarray(1));
  const starts: number[] = [];
  let offset = 1;
  for (const rest of rests) {
    starts.push(offset);
    offset += rest.length;
  }
  await client.query(
    `WITH u AS (
       SELECT term, first, first_pk, last_pk, min_pk, max_pk, n, substring($9::bytea FROM at FOR len) AS rest
       FROM unnest($2::text[], $3::bool[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::int[], $10::int[], $11::int[])
         AS u(term, first, first_pk, last_pk, min_pk, max_pk, n, at, len)
     ), locked AS (
       SELECT l.row, l.term, l.first_pk, l.last_pk, l.min_pk, l.max_pk, l.n
       FROM (SELECT term, n FROM u WHERE first ORDER BY term COLLATE "C") t CROSS JOIN LATERAL (
         SELECT b.ctid AS row, b.term, b.first_pk, b.last_pk, b.min_pk, b.max_pk, b.n FROM keyword_blocks b
         WHERE b.corpus = $1 AND b.term = t.term ORDER BY b.first_pk DESC LIMIT 1 FOR UPDATE) l
       WHERE l.n + t.n <= ${BLOCK_POSTINGS}
     ), appended AS (
       UPDATE keyword_blocks b
       SET postings = b.postings || ${postingDeltaSql('u.first_pk - l.last_pk')} || u.rest,
           n = l.n + u.n, last_pk = u.last_pk, min_pk = least(l.min_pk, u.min_pk), max_pk = greatest(l.max_pk, u.max_pk)
       FROM locked l JOIN u ON u.first AND u.term = l.term
       WHERE b.ctid = ANY(ARRAY(SELECT row FROM locked)) AND b.ctid = l.row AND l.n + u.n <= ${BLOCK_POSTINGS}
       RETURNING b.term
     )
     INSERT INTO keyword_blocks (corpus, term, first_pk, last_pk, min_pk, max_pk, n, postings)
     SELECT $1, u.term, u.first_pk, u.last_pk, u.min_pk, u.max_pk, u.n, '\\x00'::bytea || u.rest FROM u
     WHERE NOT (u.first AND u.term IN (SELECT a.term FROM appended a))`,
    [
      corpus,
      pieces.map((p) => p.term),
      pieces.map((p) => p.first),
      pieces.map((p) => (p.postings[0] as Posting).pk),
      pieces.map((p) => (p.postings.at(-1) as Posting).pk),
      pks.map((list) => list[0] as number),
      pks.map((list) => list.at(-1) as number),
      pieces.map((p) => p.postings.length),
      Buffer.concat(rests),
      starts,
      rests.map((rest) => rest.length),
    ],
  );
}
