import type { PoolClient } from 'pg';
import type { Corpus, KeywordDocument } from './keyword-index.ts';
import { appendPostings } from './keyword-block-appends.ts';
import { BLOCK_POSTINGS, decodePostings, encodePostings, type Posting } from './posting-codec.ts';

/**
 * The write side of the keyword postings, packed into blocks (keyword_blocks, migration 26): one row per term and
 * up to `BLOCK_POSTINGS` rows holding it, instead of a row per term and row. A transaction collects the postings it
 * adds and the rows it deletes, and `apply` writes them once at its end: each term's last block is filled up, new
 * blocks take the rest, and the blocks holding deleted rows are rewritten without them.
 *
 * Every block `apply` changes is locked by one statement in (term, first_pk) order, so two writers lock blocks in one
 * order and cannot deadlock on them (the term statistics are then upserted in the same order, term-stats.ts). A
 * transaction that deletes no row does all of it in one statement (keyword-block-appends.ts).
 */
export class PendingPostings {
  private readonly added = new Map<Corpus, Map<string, Posting[]>>();
  private readonly removed = new Map<Corpus, Map<string, Set<number>>>();

  /** Postings of freshly inserted rows (their pks, parallel to `docs`). */
  add(corpus: Corpus, pks: readonly number[], docs: readonly KeywordDocument[]): void {
    const terms = this.added.get(corpus) ?? new Map<string, Posting[]>();
    this.added.set(corpus, terms);
    docs.forEach((doc, i) => {
      const pk = pks[i] as number;
      doc.terms.forEach((term, t) => {
        const list = terms.get(term) ?? [];
        list.push({ pk, tf: doc.tf[t] as number, len: doc.length });
        terms.set(term, list);
      });
    });
  }

  /** Rows about to be deleted, with their terms: their postings go (including any this transaction added). */
  remove(corpus: Corpus, rows: readonly { pk: number; terms: readonly string[] }[]): void {
    const terms = this.removed.get(corpus) ?? new Map<string, Set<number>>();
    this.removed.set(corpus, terms);
    const added = this.added.get(corpus);
    for (const { pk, terms: rowTerms } of rows) {
      for (const term of rowTerms) {
        const pks = terms.get(term) ?? new Set<number>();
        pks.add(pk);
        terms.set(term, pks);
        const pending = added?.get(term);
        if (pending)
          added?.set(
            term,
            pending.filter((p) => p.pk !== pk),
          );
      }
    }
  }

  async apply(client: PoolClient): Promise<void> {
    const corpora = new Set([...this.added.keys(), ...this.removed.keys()]);
    for (const corpus of [...corpora].sort()) {
      await applyCorpus(client, corpus, this.added.get(corpus) ?? new Map(), this.removed.get(corpus) ?? new Map());
    }
    this.added.clear();
    this.removed.clear();
  }
}

interface LockedBlock {
  term: string;
  first_pk: string;
  last_pk: string;
  min_pk: string;
  max_pk: string;
  n: number;
  /** Only for blocks holding a deleted row: they are rewritten. */
  postings: Buffer | null;
  tail: boolean;
}

interface BlockUpdate {
  term: string;
  firstPk: number;
  bytes: Buffer;
  append: boolean;
  postings: Posting[];
  n: number;
  previous?: { min: number; max: number };
}

async function applyCorpus(
  client: PoolClient,
  corpus: Corpus,
  added: Map<string, Posting[]>,
  removed: Map<string, Set<number>>,
): Promise<void> {
  const appended = [...added].filter(([, list]) => list.length > 0);
  if (appended.length === 0 && removed.size === 0) return;
  // Nothing deleted: the new postings are appended or inserted by one statement (keyword-block-appends.ts).
  if (removed.size === 0) return appendPostings(client, corpus, appended);
  const removals = [...removed].map(([term, pks]) => {
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const pk of pks) {
      lo = Math.min(lo, pk);
      hi = Math.max(hi, pk);
    }
    return { term, lo, hi };
  });
  const locked = await client.query<LockedBlock>(
    `WITH keys AS (
       SELECT t.term, l.first_pk, false AS rewrite FROM unnest($2::text[]) t(term)
         CROSS JOIN LATERAL (SELECT first_pk FROM keyword_blocks
                             WHERE corpus = $1 AND term = t.term ORDER BY first_pk DESC LIMIT 1) l
       UNION ALL
       SELECT b.term, b.first_pk, true FROM unnest($3::text[], $4::bigint[], $5::bigint[]) r(term, lo, hi)
         JOIN keyword_blocks b ON b.corpus = $1 AND b.term = r.term AND b.min_pk <= r.hi AND b.max_pk >= r.lo
     ), wanted AS (SELECT term, first_pk, bool_or(rewrite) AS rewrite, bool_or(NOT rewrite) AS tail FROM keys GROUP BY term, first_pk)
     SELECT b.term, b.first_pk, b.last_pk, b.min_pk, b.max_pk, b.n, CASE WHEN w.rewrite THEN b.postings END AS postings, w.tail
     FROM keyword_blocks b JOIN wanted w ON b.corpus = $1 AND b.term = w.term AND b.first_pk = w.first_pk
     ORDER BY b.term, b.first_pk FOR UPDATE OF b`,
    [
      corpus,
      appended.map(([term]) => term),
      removals.map((r) => r.term),
      removals.map((r) => r.lo),
      removals.map((r) => r.hi),
    ],
  );
  const updates: BlockUpdate[] = [];
  const deletes: { term: string; firstPk: number }[] = [];
  const inserts: { term: string; postings: Posting[] }[] = [];
  const tails = new Map<string, LockedBlock>();
  const rewritten = new Map<string, Posting[]>();
  for (const block of locked.rows) {
    if (block.tail) tails.set(block.term, block);
    if (block.postings === null) continue;
    const gone = removed.get(block.term) ?? new Set<number>();
    const kept = decodePostings(block.postings, Number(block.first_pk)).filter((p) => !gone.has(p.pk));
    rewritten.set(`${block.term}\u0000${block.first_pk}`, kept);
    if (kept.length === 0 && !block.tail) deletes.push({ term: block.term, firstPk: Number(block.first_pk) });
    else if (!block.tail) updates.push(replacement(block.term, Number(block.first_pk), kept));
  }
  for (const [term, list] of appended) {
    list.sort((a, b) => a.pk - b.pk);
    const tail = tails.get(term);
    let rest = list;
    if (tail) {
      const firstPk = Number(tail.first_pk);
      const kept = rewritten.get(`${term}\u0000${tail.first_pk}`);
      if (kept) {
        // The tail also lost postings: rewritten whole, filled up to a block.
        const room = Math.max(BLOCK_POSTINGS - kept.length, 0);
        const merged = [...kept, ...rest.slice(0, room)];
        rest = rest.slice(room);
        if (merged.length === 0) deletes.push({ term, firstPk });
        else updates.push(replacement(term, firstPk, merged));
      } else if (tail.n < BLOCK_POSTINGS) {
        const taken = rest.slice(0, BLOCK_POSTINGS - tail.n);
        rest = rest.slice(taken.length);
        updates.push({
          term,
          firstPk,
          bytes: encodePostings(taken, Number(tail.last_pk)),
          append: true,
          postings: taken,
          n: tail.n + taken.length,
          previous: { min: Number(tail.min_pk), max: Number(tail.max_pk) },
        });
      }
    }
    for (let at = 0; at < rest.length; at += BLOCK_POSTINGS)
      inserts.push({ term, postings: rest.slice(at, at + BLOCK_POSTINGS) });
  }
  // A tail that only lost postings (nothing appended to its term) is rewritten or dropped like any other block.
  for (const block of locked.rows) {
    if (!block.tail || block.postings === null || added.get(block.term)?.length) continue;
    const kept = rewritten.get(`${block.term}\u0000${block.first_pk}`) ?? [];
    if (kept.length === 0) deletes.push({ term: block.term, firstPk: Number(block.first_pk) });
    else updates.push(replacement(block.term, Number(block.first_pk), kept));
  }
  await writeBlocks(client, corpus, updates, deletes, inserts);
}

const replacement = (term: string, firstPk: number, postings: Posting[]): BlockUpdate => ({
  term,
  firstPk,
  bytes: encodePostings(postings, firstPk),
  append: false,
  postings,
  n: postings.length,
});

async function writeBlocks(
  client: PoolClient,
  corpus: Corpus,
  updates: readonly BlockUpdate[],
  deletes: readonly { term: string; firstPk: number }[],
  inserts: readonly { term: string; postings: Posting[] }[],
): Promise<void> {
  if (deletes.length > 0) {
    await client.query(
      `DELETE FROM keyword_blocks b USING unnest($2::text[], $3::bigint[]) d(term, first_pk)
       WHERE b.corpus = $1 AND b.term = d.term AND b.first_pk = d.first_pk`,
      [corpus, deletes.map((d) => d.term), deletes.map((d) => d.firstPk)],
    );
  }
  if (updates.length > 0) {
    const pks = updates.map((u) => u.postings.map((p) => p.pk));
    const min = updates.map((u, i) => Math.min(...(pks[i] as number[]), u.previous?.min ?? Number.POSITIVE_INFINITY));
    const max = updates.map((u, i) => Math.max(...(pks[i] as number[]), u.previous?.max ?? Number.NEGATIVE_INFINITY));
    await client.query(
      `UPDATE keyword_blocks b
       SET postings = CASE WHEN u.append THEN b.postings || u.bytes ELSE u.bytes END,
           n = u.n, last_pk = u.last_pk, min_pk = u.min_pk, max_pk = u.max_pk
       FROM unnest($2::text[], $3::bigint[], $4::bytea[], $5::bool[], $6::int[], $7::bigint[], $8::bigint[], $9::bigint[])
         AS u(term, first_pk, bytes, append, n, last_pk, min_pk, max_pk)
       WHERE b.corpus = $1 AND b.term = u.term AND b.first_pk = u.first_pk`,
      [
        corpus,
        updates.map((u) => u.term),
        updates.map((u) => u.firstPk),
        updates.map((u) => u.bytes),
        updates.map((u) => u.append),
        updates.map((u) => u.n),
        updates.map((u) => (u.postings.at(-1) as Posting).pk),
        min,
        max,
      ],
    );
  }
  if (inserts.length > 0) {
    await client.query(
      `INSERT INTO keyword_blocks (corpus, term, first_pk, last_pk, min_pk, max_pk, n, postings)
       SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::int[], $8::bytea[])`,
      [
        corpus,
        inserts.map((b) => b.term),
        inserts.map((b) => (b.postings[0] as Posting).pk),
        inserts.map((b) => (b.postings.at(-1) as Posting).pk),
        inserts.map((b) => Math.min(...b.postings.map((p) => p.pk))),
        inserts.map((b) => Math.max(...b.postings.map((p) => p.pk))),
        inserts.map((b) => b.postings.length),
        inserts.map((b) => encodePostings(b.postings, (b.postings[0] as Posting).pk)),
      ],
    );
  }
}
