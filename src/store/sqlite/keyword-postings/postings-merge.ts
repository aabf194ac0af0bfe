import type { SqliteConnection } from '../connection.ts';
import { BLOCK_SIZE, DecodedBlock } from './block-codec.ts';
import { emptyList, rewriteTerm, writeRows } from './postings-rows.ts';
import { EMPTY, encoder, lastDocOf, type Tail } from './postings-tails.ts';

type Row = [string, number, number, number, number, number, Uint8Array];

const decoded = new DecodedBlock();

/**
 * Moves every block of `keyword_recent` into `keyword_blocks`, in one sorted pass, inside the caller's transaction.
 * A batch writes its postings into the small recent table (one row per term it holds, beside the rows of the batches
 * before it); here each term's recent postings are appended to its last merged block, filling it up to BLOCK_SIZE,
 * then new blocks, so one merge writes each term's merged rows once for many batches, in term order. A term's blocks
 * come out as the writer made them when it appended to `keyword_blocks` batch by batch: the same postings, the same
 * block bounds, the same bytes. A term whose recent postings do not all come after its merged ones (which new chunk
 * pks never cause) has its whole list rewritten in pk order.
 */
export function mergeRecent(conn: SqliteConnection): void {
  const rows = conn
    .stmt('SELECT term, first_pk, last_pk, count, max_tf, min_length, data FROM keyword_recent ORDER BY term, first_pk')
    .raw(true)
    .all() as Row[];
  // Each recent term's last merged block (its bytes only when it has room), in one statement.
  const tailRows = conn
    .stmt(
      `SELECT b.term, b.first_pk, b.last_pk, b.count, b.max_tf, b.min_length,
         CASE WHEN b.count < ${BLOCK_SIZE} THEN b.data END
       FROM (SELECT DISTINCT term FROM keyword_recent) r
       JOIN keyword_blocks b ON b.term = r.term
         AND b.first_pk = (SELECT max(first_pk) FROM keyword_blocks WHERE term = r.term)`,
    )
    .raw(true)
    .all() as Row[];
  const tails = new Map(tailRows.map((row) => [row[0], row]));
  const replaced: unknown[] = [];
  const inserted: unknown[] = [];
  for (let from = 0; from < rows.length; ) {
    const term = (rows[from] as Row)[0];
    let to = from + 1;
    while (to < rows.length && (rows[to] as Row)[0] === term) to++;
    const tail = tails.get(term);
    if (tail && (rows[from] as Row)[1] <= tail[2]) rewriteTerm(conn, term, emptyList());
    else if (!tail || tail[3] >= BLOCK_SIZE) {
      // Nothing to fill: the recent blocks are merged blocks as they are.
      for (let i = from; i < to; i++) inserted.push(...(rows[i] as Row));
    } else {
      const [, firstPk, lastPk, count, maxTf, minLength, data] = tail;
      const last = { firstPk, lastPk, lastDoc: lastDocOf(data, count), count, maxTf, minLength, data };
      appendToTail(term, last, rows, from, to, replaced, inserted);
    }
    from = to;
  }
  writeRows(conn, 'keyword_blocks', 'INSERT OR REPLACE', replaced);
  writeRows(conn, 'keyword_blocks', 'INSERT', inserted);
  conn.stmt('DELETE FROM keyword_recent').run();
}

/**
 * Appends the postings of the recent blocks `rows[from..to)` to `tail` (the term's last merged block, not full), then
 * to new blocks of BLOCK_SIZE; the tail's row goes to `replaced`, the new ones to `inserted` (seven values a row).
 */
function appendToTail(
  term: string,
  tail: Tail,
  rows: readonly Row[],
  from: number,
  to: number,
  replaced: unknown[],
  inserted: unknown[],
): void {
  let block: Tail & { head: Uint8Array } = { ...tail, head: tail.data };
  let fromTail = true;
  encoder.reset();
  const emit = () => {
    const data = encoder.take(fromTail ? block.head : undefined);
    (fromTail ? replaced : inserted).push(
      term,
      block.firstPk,
      block.lastPk,
      block.count,
      block.maxTf,
      block.minLength,
      data,
    );
  };
  for (let r = from; r < to; r++) {
    const row = rows[r] as Row;
    decoded.decode(row[6], row[1], row[3]);
    for (let i = 0; i < decoded.size; i++) {
      const pk = decoded.pk[i] as number;
      const doc = decoded.doc[i] as number;
      const tf = decoded.tf[i] as number;
      const length = decoded.length[i] as number;
      if (block.count === BLOCK_SIZE) {
        emit();
        fromTail = false;
        encoder.reset();
        block = { firstPk: pk, lastPk: pk, lastDoc: 0, count: 0, maxTf: 0, minLength: 0, data: EMPTY, head: EMPTY };
      }
      encoder.put(pk, block.lastPk, doc, block.lastDoc, tf, length);
      if (block.count === 0 || length < block.minLength) block.minLength = length;
      if (tf > block.maxTf) block.maxTf = tf;
      block.lastPk = pk;
      block.lastDoc = doc;
      block.count++;
    }
  }
  emit();
}
