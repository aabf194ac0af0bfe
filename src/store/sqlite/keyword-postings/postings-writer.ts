import type { SqliteConnection } from '../connection.ts';
import { BLOCK_SIZE, DecodedBlock, encodeBlock, type EncodedBlock } from './block-codec.ts';
import { chunkTerms } from './tokens.ts';

interface PendingList {
  pk: number[];
  doc: number[];
  tf: number[];
  length: number[];
}

/**
 * The keyword postings (`keyword_blocks`, migration 025) written beside `chunk_fts` in the ingest transaction. Chunks
 * are gathered per term and written when `flush` is called, so a batch of documents costs one read and one write of
 * each term's last block instead of one per document. A term's blocks hold its chunks in ascending pk: new chunks
 * fill the last block up to BLOCK_SIZE, then open new ones. `keyword_doc_terms` keeps each document's distinct terms,
 * so removing a document rewrites only the blocks holding its chunks.
 *
 * Runs inside the caller's transaction: a failed write rolls the postings back with everything else. A batch that
 * throws is dropped by its caller with `discard`.
 */
export class KeywordPostingsBatch {
  private pending = new Map<string, PendingList>();
  private docTerms = new Map<number, Set<string>>();

  constructor(private readonly conn: SqliteConnection) {}

  /** Adds one chunk's postings (its analysed keyword text, as given to `chunk_fts`). */
  addChunk(chunkPk: number, docPk: number, keywordText: string): void {
    const { tf, length } = chunkTerms(keywordText);
    let terms = this.docTerms.get(docPk);
    if (!terms) {
      terms = new Set();
      this.docTerms.set(docPk, terms);
    }
    for (const [term, count] of tf) {
      let list = this.pending.get(term);
      if (!list) {
        list = { pk: [], doc: [], tf: [], length: [] };
        this.pending.set(term, list);
      }
      list.pk.push(chunkPk);
      list.doc.push(docPk);
      list.tf.push(count);
      list.length.push(length);
      terms.add(term);
    }
  }

  /** Writes what was added since the last flush. */
  flush(): void {
    if (this.pending.size === 0 && this.docTerms.size === 0) return;
    const { conn } = this;
    const last = conn.stmt(
      'SELECT first_pk AS firstPk, last_pk AS lastPk, count, data FROM keyword_blocks WHERE term = ? ORDER BY first_pk DESC LIMIT 1',
    );
    for (const [term, list] of this.pending) {
      const tail = last.get(term) as StoredBlock | undefined;
      if (tail && tail.lastPk >= (list.pk[0] as number)) {
        rewriteTerm(conn, term, list);
        continue;
      }
      if (tail && tail.count < BLOCK_SIZE) {
        // Refill the last block (same key, updated in place): its postings, then the new ones.
        scratch.decode(tail.data, tail.firstPk, tail.count);
        insertBlocks(conn, term, concat(scratch, list), true);
      } else insertBlocks(conn, term, list);
    }
    const insertTerms = conn.stmt('INSERT OR REPLACE INTO keyword_doc_terms (doc_pk, terms) VALUES (?, ?)');
    const readTerms = conn.stmt('SELECT terms FROM keyword_doc_terms WHERE doc_pk = ?');
    for (const [docPk, terms] of this.docTerms) {
      const known = readTerms.get(docPk) as { terms: string } | undefined;
      if (known) for (const term of known.terms.split('\n')) terms.add(term);
      insertTerms.run(docPk, [...terms].join('\n'));
    }
    this.discard();
  }

  /** Forgets what was added and not flushed (the transaction it belonged to failed). */
  discard(): void {
    this.pending = new Map();
    this.docTerms = new Map();
  }
}

interface StoredBlock {
  firstPk: number;
  lastPk: number;
  count: number;
  data: Uint8Array;
}

/**
 * Removes a document's postings: in each of its terms, the blocks overlapping its chunk pks are rewritten without
 * them (or deleted when emptied). `batch`, when given, is flushed first, so postings it still holds are removed too.
 */
export function removeKeywordPostings(
  conn: SqliteConnection,
  docPk: number,
  chunkPks: readonly number[],
  batch?: KeywordPostingsBatch,
): void {
  batch?.flush();
  const row = conn.stmt('SELECT terms FROM keyword_doc_terms WHERE doc_pk = ?').get(docPk) as
    | { terms: string }
    | undefined;
  if (!row) return;
  conn.stmt('DELETE FROM keyword_doc_terms WHERE doc_pk = ?').run(docPk);
  if (chunkPks.length === 0 || row.terms === '') return;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const pk of chunkPks) {
    if (pk < min) min = pk;
    if (pk > max) max = pk;
  }
  const overlapping = conn.stmt(
    `SELECT first_pk AS firstPk, last_pk AS lastPk, count, data FROM keyword_blocks
     WHERE term = @term AND first_pk <= @max AND first_pk >= coalesce(
       (SELECT max(first_pk) FROM keyword_blocks WHERE term = @term AND first_pk <= @min), @min)
     ORDER BY first_pk`,
  );
  const decoded = scratch;
  for (const term of row.terms.split('\n')) {
    for (const block of overlapping.all({ term, min, max }) as StoredBlock[]) {
      if (block.lastPk < min) continue;
      decoded.decode(block.data, block.firstPk, block.count);
      const kept: PendingList = { pk: [], doc: [], tf: [], length: [] };
      for (let i = 0; i < decoded.size; i++) {
        if (decoded.doc[i] === docPk) continue;
        kept.pk.push(decoded.pk[i] as number);
        kept.doc.push(decoded.doc[i] as number);
        kept.tf.push(decoded.tf[i] as number);
        kept.length.push(decoded.length[i] as number);
      }
      if (kept.pk.length === block.count) continue;
      deleteBlock(conn, term, block.firstPk);
      if (kept.pk.length > 0) insertBlocks(conn, term, kept);
    }
  }
}

/** One block decoded at a time while writing (the writes are synchronous). */
const scratch = new DecodedBlock();

/**
 * Writes `columns` (ascending pk) as blocks of BLOCK_SIZE, the last one possibly shorter; with `replaceFirst`, the
 * first block replaces the stored block with the same first pk.
 */
function insertBlocks(conn: SqliteConnection, term: string, columns: PendingList, replaceFirst = false): void {
  const insert = conn.stmt(
    `INSERT INTO keyword_blocks (term, first_pk, last_pk, count, max_tf, min_length, data)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = conn.stmt(
    `UPDATE keyword_blocks SET last_pk = ?, count = ?, max_tf = ?, min_length = ?, data = ?
     WHERE term = ? AND first_pk = ?`,
  );
  const size = columns.pk.length;
  for (let from = 0; from < size; from += BLOCK_SIZE) {
    const block: EncodedBlock = encodeBlock(columns, from, Math.min(size, from + BLOCK_SIZE));
    if (from === 0 && replaceFirst)
      update.run(block.lastPk, block.count, block.maxTf, block.minLength, block.data, term, block.firstPk);
    else insert.run(term, block.firstPk, block.lastPk, block.count, block.maxTf, block.minLength, block.data);
  }
}

function deleteBlock(conn: SqliteConnection, term: string, firstPk: number): void {
  conn.stmt('DELETE FROM keyword_blocks WHERE term = ? AND first_pk = ?').run(term, firstPk);
}

/** A term whose new chunks do not all come after its stored ones: its whole list is merged and written again. */
function rewriteTerm(conn: SqliteConnection, term: string, list: PendingList): void {
  const blocks = conn
    .stmt('SELECT first_pk AS firstPk, last_pk AS lastPk, count, data FROM keyword_blocks WHERE term = ?')
    .all(term) as StoredBlock[];
  const postings: [number, number, number, number][] = [];
  const decoded = scratch;
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
  list.pk.forEach((pk, i) => {
    postings.push([pk, list.doc[i] as number, list.tf[i] as number, list.length[i] as number]);
  });
  postings.sort((a, b) => a[0] - b[0]);
  conn.stmt('DELETE FROM keyword_blocks WHERE term = ?').run(term);
  insertBlocks(conn, term, {
    pk: postings.map((p) => p[0]),
    doc: postings.map((p) => p[1]),
    tf: postings.map((p) => p[2]),
    length: postings.map((p) => p[3]),
  });
}

function concat(block: DecodedBlock, list: PendingList): PendingList {
  const join = (head: Int32Array, tail: number[]): number[] => {
    const out = new Array<number>(block.size + tail.length);
    for (let i = 0; i < block.size; i++) out[i] = head[i] as number;
    for (let i = 0; i < tail.length; i++) out[block.size + i] = tail[i] as number;
    return out;
  };
  return {
    pk: join(block.pk, list.pk),
    doc: join(block.doc, list.doc),
    tf: join(block.tf, list.tf),
    length: join(block.length, list.length),
  };
}
