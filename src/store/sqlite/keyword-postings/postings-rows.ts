import type { SqliteConnection } from '../connection.ts';
import { BLOCK_SIZE, DecodedBlock, encodeBlock, type EncodedBlock } from './block-codec.ts';
import { lastDocOf, type PostingsTails, type Tail } from './postings-tails.ts';

/**
 * The two tables a term's blocks live in: `keyword_blocks` (merged) and `keyword_recent` (the blocks of the batches
 * since the last merge, `postings-merge.ts`). A term's blocks over both are disjoint and ascend in pk, the recent ones
 * after the merged ones (a new chunk's pk is above every stored one), so reading both in first_pk order gives its list.
 */
export type BlockTable = 'keyword_blocks' | 'keyword_recent';
export const BLOCK_TABLES: readonly BlockTable[] = ['keyword_blocks', 'keyword_recent'];

/** Postings held as plain arrays, ascending pk. */
export interface PendingList {
  pk: number[];
  doc: number[];
  tf: number[];
  length: number[];
}

export const emptyList = (): PendingList => ({ pk: [], doc: [], tf: [], length: [] });

interface StoredBlock {
  firstPk: number;
  lastPk: number;
  count: number;
  data: Uint8Array;
}

/** One block decoded at a time while writing (the writes are synchronous). */
const scratch = new DecodedBlock();

/** A term's last block in `table`, or undefined when it has none there. */
export function readTail(conn: SqliteConnection, table: BlockTable, term: string): Tail | undefined {
  const row = conn
    .stmt(
      `SELECT first_pk, last_pk, count, max_tf, min_length, data FROM ${table} WHERE term = ? ORDER BY first_pk DESC LIMIT 1`,
    )
    .raw(true)
    .get(term) as [number, number, number, number, number, Uint8Array] | undefined;
  if (!row) return undefined;
  const [firstPk, lastPk, count, maxTf, minLength, data] = row;
  return { firstPk, lastPk, lastDoc: lastDocOf(data, count), count, maxTf, minLength, data };
}

/** Holds the term's recent tail as stored now (after its blocks were rewritten outside the cache). */
export function refreshTail(conn: SqliteConnection, tails: PostingsTails, term: string): void {
  const tail = readTail(conn, 'keyword_recent', term);
  if (tail) tails.set(term, tail);
  else tails.drop(term);
}

/** Writes block rows (seven values each) into `table` in statements of up to 128 rows. */
export function writeRows(
  conn: SqliteConnection,
  table: BlockTable,
  verb: 'INSERT' | 'INSERT OR REPLACE',
  values: unknown[],
): void {
  let at = 0;
  for (const rows of [128, 16, 1]) {
    const width = rows * 7;
    if (values.length - at < width) continue;
    const statement = conn.stmt(
      `${verb} INTO ${table} (term, first_pk, last_pk, count, max_tf, min_length, data) VALUES ${Array.from(
        { length: rows },
        () => '(?, ?, ?, ?, ?, ?, ?)',
      ).join(', ')}`,
    );
    for (; values.length - at >= width; at += width) statement.run(values.slice(at, at + width));
  }
}

/** Writes `columns` (ascending pk) into `table` as blocks of BLOCK_SIZE, the last one possibly shorter. */
export function insertBlocks(conn: SqliteConnection, table: BlockTable, term: string, columns: PendingList): void {
  const insert = conn.stmt(
    `INSERT INTO ${table} (term, first_pk, last_pk, count, max_tf, min_length, data) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const size = columns.pk.length;
  for (let from = 0; from < size; from += BLOCK_SIZE) {
    const block: EncodedBlock = encodeBlock(columns, from, Math.min(size, from + BLOCK_SIZE));
    insert.run(term, block.firstPk, block.lastPk, block.count, block.maxTf, block.minLength, block.data);
  }
}

/**
 * Removes document `docPk`'s postings (its chunks' pks between `min` and `max`) from `term`'s blocks in `table`: each
 * block overlapping them is rewritten without them, or deleted when emptied.
 */
export function removeFromTerm(
  conn: SqliteConnection,
  table: BlockTable,
  term: string,
  docPk: number,
  min: number,
  max: number,
): void {
  const overlapping = conn.stmt(
    `SELECT first_pk AS firstPk, last_pk AS lastPk, count, data FROM ${table}
     WHERE term = @term AND first_pk <= @max AND first_pk >= coalesce(
       (SELECT max(first_pk) FROM ${table} WHERE term = @term AND first_pk <= @min), @min)
     ORDER BY first_pk`,
  );
  const decoded = scratch;
  for (const block of overlapping.all({ term, min, max }) as StoredBlock[]) {
    if (block.lastPk < min) continue;
    decoded.decode(block.data, block.firstPk, block.count);
    const kept = emptyList();
    for (let i = 0; i < decoded.size; i++) {
      if (decoded.doc[i] === docPk) continue;
      kept.pk.push(decoded.pk[i] as number);
      kept.doc.push(decoded.doc[i] as number);
      kept.tf.push(decoded.tf[i] as number);
      kept.length.push(decoded.length[i] as number);
    }
    if (kept.pk.length === block.count) continue;
    conn.stmt(`DELETE FROM ${table} WHERE term = ? AND first_pk = ?`).run(term, block.firstPk);
    if (kept.pk.length > 0) insertBlocks(conn, table, term, kept);
  }
}

/**
 * A term whose new postings do not all come after its stored ones: its whole list (both tables and `list`) is
 * merged in pk order and written again to `keyword_blocks`, none of it left in `keyword_recent`.
 */
export function rewriteTerm(conn: SqliteConnection, term: string, list: PendingList): void {
  const postings: [number, number, number, number][] = [];
  const decoded = scratch;
  for (const table of BLOCK_TABLES) {
    const blocks = conn
      .stmt(`SELECT first_pk AS firstPk, last_pk AS lastPk, count, data FROM ${table} WHERE term = ?`)
      .all(term) as StoredBlock[];
    for (const block of blocks) {
      decoded.decode(block.data, block.firstPk, block.count);
      for (let i = 0; i < decoded.size; i++)
        postings.push([
          decoded.pk[i] as number,
          decoded.doc[i] as number,
          decoded.tf[i] as number,
          decoded.length[i] as number,
        ]);
    }
    conn.stmt(`DELETE FROM ${table} WHERE term = ?`).run(term);
  }
  list.pk.forEach((pk, i) => {
    postings.push([pk, list.doc[i] as number, list.tf[i] as number, list.length[i] as number]);
  });
  postings.sort((a, b) => a[0] - b[0]);
  insertBlocks(conn, 'keyword_blocks', term, {
    pk: postings.map((p) => p[0]),
    doc: postings.map((p) => p[1]),
    tf: postings.map((p) => p[2]),
    length: postings.map((p) => p[3]),
  });
}
