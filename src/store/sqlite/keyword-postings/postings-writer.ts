import type { SqliteConnection } from '../connection.ts';
import { BLOCK_SIZE } from './block-codec.ts';
import { mergeRecent } from './postings-merge.ts';
import {
  BLOCK_TABLES,
  emptyList,
  readTail,
  refreshTail,
  removeFromTerm,
  rewriteTerm,
  writeRows,
} from './postings-rows.ts';
import { encoder, EMPTY, type PostingsTails, type Tail, tailsOf } from './postings-tails.ts';
import { formTerms } from '../../../text/analysed-form-terms.ts';
import { chunkTerms } from './tokens.ts';

/** Keyword text the analyser made: lowercase ASCII terms of FTS5's token characters, separated by single spaces. */
const PLAIN = /^[a-z0-9_$. ]*$/;

/** Block rows to write, seven values a row (term, first_pk, last_pk, count, max_tf, min_length, data). */
interface BlockRows {
  /** Tails that grew: the row with the same (term, first_pk) is replaced. */
  replaced: unknown[];
  /** New blocks. */
  inserted: unknown[];
}

/** An int32 column that grows. */
class IntColumn {
  data = new Int32Array(1024);
  size = 0;

  push(value: number): void {
    if (this.size === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.size++] = value;
  }
}

/**
 * The keyword postings (`keyword_blocks`, migration 025, and `keyword_recent`) written beside `chunk_fts` in the
 * ingest transaction. Chunks are gathered per term and written when `flush` is called, one row write per term and
 * batch into the small `keyword_recent` table: a term's new postings are appended to its last recent block's bytes
 * (held by the connection's tails cache, `postings-tails.ts`, so the block is neither read nor decoded again) up to
 * BLOCK_SIZE, then fill new blocks; the rows go in multi-row statements. Past `mergeRows` recent rows, the flush moves
 * them into `keyword_blocks` in one sorted pass (`postings-merge.ts`), so the big table takes each term's row once for
 * many batches instead of once per batch. A term's blocks hold its chunks in ascending pk. `keyword_doc_terms` keeps
 * each document's distinct terms, so removing a document rewrites only the blocks holding its chunks.
 *
 * Runs inside the caller's transaction (`contentWrite`, which tells the tails cache whether it committed): a failed
 * write rolls the postings back with everything else. A batch that throws is dropped by its caller with `discard`.
 */
export class KeywordPostingsBatch {
  /** The batch's distinct terms, by id. */
  private termIds = new Map<string, number>();
  private terms: string[] = [];
  /** Per term id: occurrences in the chunk being added, and the last document it was listed for. */
  private inChunk = new IntColumn();
  private lastDoc = new IntColumn();
  /** The postings, in the order added (ascending chunk pk). */
  private postingTerm = new IntColumn();
  private postingPk = new IntColumn();
  private postingDoc = new IntColumn();
  private postingTf = new IntColumn();
  private postingLength = new IntColumn();
  /** Each document's distinct term ids, first seen first. */
  private docTerms = new Map<number, number[]>();
  /** Documents whose terms were flushed earlier by this batch (their stored list is merged with the new one). */
  private readonly flushedDocs = new Set<number>();
  /** The document of the last chunk added, and documents added again after another (their term lists may repeat). */
  private currentDoc = -1;
  private recurring = new Set<number>();
  private readonly touched: number[] = [];

  constructor(private readonly conn: SqliteConnection) {}

  /**
   * Adds one chunk's postings (its analysed keyword text, as given to `chunk_fts`). `form`, the chunk's analysed form
   * made from that text (text/analysed-form.ts), holds its distinct terms and their counts: with it, plain keyword
   * text is not split again.
   */
  addChunk(chunkPk: number, docPk: number, keywordText: string, form?: Uint8Array): void {
    const { touched, inChunk } = this;
    let length = 0;
    const plain = PLAIN.test(keywordText);
    // The form's terms are the text's space-separated words, which are its tokens when the text is plain.
    const stated = plain && form ? formTerms(form) : undefined;
    if (stated) {
      const { terms, counts } = stated;
      for (let k = 0; k < terms.length; k++) {
        const id = this.termId(terms[k] as string);
        touched.push(id);
        inChunk.data[id] = counts[k] as number;
      }
      length = stated.length;
    } else if (plain) {
      // Lowercase ASCII terms between spaces (the analyser's output): the tokens are the space-separated words.
      let from = 0;
      const end = keywordText.length;
      while (from < end) {
        let to = keywordText.indexOf(' ', from);
        if (to < 0) to = end;
        if (to > from) {
          const id = this.termId(keywordText.slice(from, to));
          if (inChunk.data[id] === 0) touched.push(id);
          inChunk.data[id] = (inChunk.data[id] as number) + 1;
          length++;
        }
        from = to + 1;
      }
    } else {
      const { tf, length: tokens } = chunkTerms(keywordText);
      length = tokens;
      for (const [term, count] of tf) {
        const id = this.termId(term);
        touched.push(id);
        inChunk.data[id] = count;
      }
    }
    let docTerms = this.docTerms.get(docPk);
    if (!docTerms) {
      docTerms = [];
      this.docTerms.set(docPk, docTerms);
    } else if (docPk !== this.currentDoc) this.recurring.add(docPk);
    this.currentDoc = docPk;
    for (const id of touched) {
      this.postingTerm.push(id);
      this.postingPk.push(chunkPk);
      this.postingDoc.push(docPk);
      this.postingTf.push(inChunk.data[id] as number);
      this.postingLength.push(length);
      inChunk.data[id] = 0;
      if (this.lastDoc.data[id] !== docPk) {
        this.lastDoc.data[id] = docPk;
        docTerms.push(id);
      }
    }
    touched.length = 0;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.termIds.set(term, id);
      this.terms.push(term);
      this.inChunk.push(0);
      this.lastDoc.push(-1);
    }
    return id;
  }

  /** Writes what was added since the last flush. */
  flush(): void {
    if (this.postingTerm.size === 0 && this.docTerms.size === 0) return;
    const { conn } = this;
    const tails = tailsOf(conn);
    tails.begin(conn, this, conn.generation());
    // The postings grouped by term (a counting sort), each term's in the order added.
    const termCount = this.terms.length;
    const size = this.postingTerm.size;
    const starts = new Int32Array(termCount + 1);
    const byTerm = this.postingTerm.data;
    for (let i = 0; i < size; i++) {
      const slot = (byTerm[i] as number) + 1;
      starts[slot] = (starts[slot] as number) + 1;
    }
    for (let t = 0; t < termCount; t++) starts[t + 1] = (starts[t + 1] as number) + (starts[t] as number);
    const order = new Int32Array(size);
    const cursor = starts.slice(0, termCount);
    for (let i = 0; i < size; i++) {
      const t = byTerm[i] as number;
      const at = cursor[t] as number;
      order[at] = i;
      cursor[t] = at + 1;
    }

    const rows: BlockRows = { replaced: [], inserted: [] };
    // In term order, so the rows go into the table's b-tree in key order (each page touched once, not at random).
    for (const term of this.terms.slice().sort()) {
      const t = this.termIds.get(term) as number;
      this.writeTerm(tails, rows, t, order, starts[t] as number, starts[t + 1] as number);
    }
    writeRows(conn, 'keyword_recent', 'INSERT OR REPLACE', rows.replaced);
    writeRows(conn, 'keyword_recent', 'INSERT', rows.inserted);
    tails.recentRows += rows.inserted.length / 7;

    const insertTerms = conn.stmt('INSERT OR REPLACE INTO keyword_doc_terms (doc_pk, terms) VALUES (?, ?)');
    const readTerms = conn.stmt('SELECT terms FROM keyword_doc_terms WHERE doc_pk = ?');
    for (const [docPk, ids] of this.docTerms) {
      let names = ids.map((id) => this.terms[id] as string);
      const known = this.flushedDocs.has(docPk) ? (readTerms.get(docPk) as { terms: string } | undefined) : undefined;
      // A document seen again after another (or stored by an earlier flush): its terms once each.
      if (known || this.recurring.has(docPk))
        names = [...new Set([...(known ? known.terms.split('\n') : []), ...names])];
      insertTerms.run(docPk, names.join('\n'));
      this.flushedDocs.add(docPk);
    }
    this.discard();
    if (tails.recentRows >= tails.mergeRows) {
      mergeRecent(conn);
      tails.emptied();
    }
  }

  /** Appends term `t`'s postings `order[from..to)` to its blocks, adding the rows to write to `rows`. */
  private writeTerm(
    tails: PostingsTails,
    rows: BlockRows,
    t: number,
    order: Int32Array,
    from: number,
    to: number,
  ): void {
    if (from === to) return;
    const term = this.terms[t] as string;
    const pk = this.postingPk.data;
    const doc = this.postingDoc.data;
    const tf = this.postingTf.data;
    const length = this.postingLength.data;
    let tail = tails.get(term) ?? (tails.complete ? undefined : readTail(this.conn, 'keyword_recent', term));
    let ascending = tail === undefined || (tail.lastPk as number) < (pk[order[from] as number] as number);
    for (let i = from + 1; i < to && ascending; i++)
      ascending = (pk[order[i - 1] as number] as number) < (pk[order[i] as number] as number);
    if (!ascending) {
      const list = emptyList();
      for (let i = from; i < to; i++) {
        const k = order[i] as number;
        list.pk.push(pk[k] as number);
        list.doc.push(doc[k] as number);
        list.tf.push(tf[k] as number);
        list.length.push(length[k] as number);
      }
      rewriteTerm(this.conn, term, list);
      refreshTail(this.conn, tails, term);
      return;
    }
    let i = from;
    while (i < to) {
      // Fill the tail when it has room, else open a block.
      const fill = tail !== undefined && tail.count < BLOCK_SIZE;
      const base: Tail = fill
        ? (tail as Tail)
        : {
            firstPk: pk[order[i] as number] as number,
            lastPk: 0,
            lastDoc: 0,
            count: 0,
            maxTf: 0,
            minLength: 0,
            data: EMPTY,
          };
      if (!fill) base.lastPk = base.firstPk;
      const end = Math.min(to, i + BLOCK_SIZE - base.count);
      const added = end - i;
      let { lastPk, lastDoc, maxTf } = base;
      let minLength = base.count === 0 ? Number.MAX_SAFE_INTEGER : base.minLength;
      encoder.reset();
      for (; i < end; i++) {
        const k = order[i] as number;
        const p = pk[k] as number;
        const d = doc[k] as number;
        const f = tf[k] as number;
        const l = length[k] as number;
        encoder.put(p, lastPk, d, lastDoc, f, l);
        lastPk = p;
        lastDoc = d;
        if (f > maxTf) maxTf = f;
        if (l < minLength) minLength = l;
      }
      const { firstPk } = base;
      const count = base.count + added;
      const data = encoder.take(fill ? base.data : undefined);
      (fill ? rows.replaced : rows.inserted).push(term, firstPk, lastPk, count, maxTf, minLength, data);
      tail = { firstPk, lastPk, lastDoc, count, maxTf, minLength, data };
    }
    if (tail) tails.set(term, tail);
  }

  /** Forgets what was added and not flushed (the transaction it belonged to failed). */
  discard(): void {
    this.termIds = new Map();
    this.terms = [];
    this.inChunk = new IntColumn();
    this.lastDoc = new IntColumn();
    for (const column of [this.postingTerm, this.postingPk, this.postingDoc, this.postingTf, this.postingLength])
      column.size = 0;
    this.docTerms = new Map();
    this.currentDoc = -1;
    this.recurring = new Set();
  }
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
  const tails = tailsOf(conn);
  // Within a batch the tails stay held and are read again below; otherwise the cache is dropped.
  if (batch) tails.begin(conn, batch, conn.generation());
  else tails.failed();
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
  for (const term of row.terms.split('\n')) {
    for (const table of BLOCK_TABLES) removeFromTerm(conn, table, term, docPk, min, max);
    if (batch) refreshTail(conn, tails, term);
  }
}
