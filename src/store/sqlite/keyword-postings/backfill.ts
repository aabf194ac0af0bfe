import type { Database } from 'better-sqlite3';
import { BLOCK_SIZE, encodeBlock } from './block-codec.ts';

/** Terms' postings read from FTS5 per page: bounds the memory the backfill holds. */
const PAGE_POSTINGS = 500_000;

/**
 * Fills `keyword_blocks` and `keyword_doc_terms` from what `chunk_fts` indexed, so the postings hold exactly FTS5's
 * tokens, term frequencies and row lengths (its instance vocabulary and its `docsize` table) whatever analyser wrote
 * them. Terms are read in pages of about PAGE_POSTINGS postings, in term order, each term's chunks in pk order.
 */
export function backfillKeywordPostings(db: Database): void {
  const docOf = new Map<number, number>();
  for (const row of db.prepare('SELECT pk, doc_pk AS docPk FROM chunks').iterate() as Iterable<{
    pk: number;
    docPk: number;
  }>)
    docOf.set(row.pk, row.docPk);
  if (docOf.size === 0) return;
  const lengthOf = new Map<number, number>();
  for (const row of db.prepare('SELECT id, sz FROM chunk_fts_docsize').iterate() as Iterable<{
    id: number;
    sz: Uint8Array;
  }>)
    lengthOf.set(row.id, readVarint(row.sz));

  db.exec("CREATE VIRTUAL TABLE temp.keyword_backfill_instances USING fts5vocab(main, 'chunk_fts', 'instance')");
  db.exec("CREATE VIRTUAL TABLE temp.keyword_backfill_rows USING fts5vocab(main, 'chunk_fts', 'row')");
  const pages: [string, string][] = [];
  let pageStart: string | undefined;
  let pageEnd = '';
  let inPage = 0;
  for (const row of db.prepare('SELECT term, doc FROM temp.keyword_backfill_rows ORDER BY term').iterate() as Iterable<{
    term: string;
    doc: number;
  }>) {
    pageStart ??= row.term;
    pageEnd = row.term;
    inPage += row.doc;
    if (inPage >= PAGE_POSTINGS) {
      pages.push([pageStart, pageEnd]);
      pageStart = undefined;
      inPage = 0;
    }
  }
  if (pageStart !== undefined) pages.push([pageStart, pageEnd]);

  const instances = db.prepare(
    'SELECT term, doc FROM temp.keyword_backfill_instances WHERE term >= ? AND term <= ? ORDER BY term, doc',
  );
  const insert = db.prepare(
    `INSERT INTO keyword_blocks (term, first_pk, last_pk, count, max_tf, min_length, data) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const termsOfDoc = new Map<number, string[]>();
  for (const [from, to] of pages) {
    const lists = new Map<string, { pk: number[]; tf: number[] }>();
    let list: { pk: number[]; tf: number[] } | undefined;
    let current = '';
    for (const row of instances.iterate(from, to) as Iterable<{ term: string; doc: number }>) {
      if (!list || row.term !== current) {
        current = row.term;
        list = { pk: [], tf: [] };
        lists.set(current, list);
      }
      const last = list.pk.length - 1;
      if (last >= 0 && list.pk[last] === row.doc) list.tf[last] = (list.tf[last] as number) + 1;
      else {
        list.pk.push(row.doc);
        list.tf.push(1);
      }
    }
    for (const [term, { pk, tf }] of lists) {
      const kept = pk.flatMap((chunkPk, i) => (docOf.has(chunkPk) ? [i] : []));
      const columns = {
        pk: kept.map((i) => pk[i] as number),
        tf: kept.map((i) => tf[i] as number),
        doc: kept.map((i) => docOf.get(pk[i] as number) as number),
        length: kept.map((i) => lengthOf.get(pk[i] as number) ?? 0),
      };
      for (let at = 0; at < columns.pk.length; at += BLOCK_SIZE) {
        const block = encodeBlock(columns, at, Math.min(columns.pk.length, at + BLOCK_SIZE));
        insert.run(term, block.firstPk, block.lastPk, block.count, block.maxTf, block.minLength, block.data);
      }
      let previousDoc = -1;
      for (const docPk of columns.doc) {
        if (docPk === previousDoc) continue;
        previousDoc = docPk;
        const terms = termsOfDoc.get(docPk);
        if (terms && terms[terms.length - 1] !== term) terms.push(term);
        else if (!terms) termsOfDoc.set(docPk, [term]);
      }
    }
  }
  const insertTerms = db.prepare('INSERT INTO keyword_doc_terms (doc_pk, terms) VALUES (?, ?)');
  for (const [docPk, terms] of termsOfDoc) insertTerms.run(docPk, terms.join('\n'));
  db.exec('DROP TABLE temp.keyword_backfill_instances');
  db.exec('DROP TABLE temp.keyword_backfill_rows');
}

/** SQLite's varint (as FTS5 writes it): big-endian 7-bit groups with a continuation bit, the ninth byte whole. */
export function readVarint(bytes: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 8 && i < bytes.length; i++) {
    const byte = bytes[i] as number;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  return value * 256 + (bytes[8] ?? 0);
}
