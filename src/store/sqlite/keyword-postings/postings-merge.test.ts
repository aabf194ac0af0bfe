import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { DocumentWrite } from '../../ports/document-store.ts';
import { seededRandom } from '../../../testing/seeded-random.ts';
import { documentWrite } from '../../../testing/store-conformance/fixtures.ts';
import { SqliteConnection } from '../connection.ts';
import { contentWrite, insertDocuments, removeDocumentRows } from '../document-writes.ts';
import { VectorCache } from '../vectors/vector-cache.ts';
import { backfillKeywordPostings } from './backfill.ts';
import { BLOCK_SIZE, DecodedBlock } from './block-codec.ts';
import { mergeRecent } from './postings-merge.ts';
import { mergePolicy } from './postings-tails.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-postings-merge-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const defaultRows = mergePolicy.rows;
afterEach(() => {
  mergePolicy.rows = defaultRows;
});

/** Chunks with a few words in every chunk (their blocks fill and spill), some in many, many rare ones. */
function batches(seed: number, count: number): DocumentWrite[][] {
  const random = seededRandom(seed);
  const text = () => {
    const words = ['alpha', 'beta'];
    for (let i = 0; i < 8; i++) words.push(`w${Math.floor(random() * 30)}`);
    for (let i = 0; i < 4; i++) words.push(`rare${Math.floor(random() * 2_000)}`);
    if (random() < 0.2) words.push('Straße', 'ID-42');
    return words.join(' ');
  };
  let doc = 0;
  return Array.from({ length: count }, () =>
    Array.from({ length: 12 }, () =>
      documentWrite({
        docId: `doc-${doc++}`,
        chunks: Array.from({ length: 1 + (doc % 5) }, () => {
          const t = text();
          return { text: t, keywords: t, vector: new Float32Array(8).fill(0.5) };
        }),
      }),
    ),
  );
}

type Conn = { conn: SqliteConnection; vectors: VectorCache };
const open = (name: string): Conn => {
  const conn = SqliteConnection.open(join(root, name));
  return { conn, vectors: new VectorCache(conn) };
};
const put = ({ conn, vectors }: Conn, writes: DocumentWrite[]) =>
  contentWrite(conn, vectors, 'put', { removed: [], added: [] }, () =>
    insertDocuments(conn, writes, { removed: [], added: [] }),
  );
const remove = ({ conn, vectors }: Conn, docId: string) =>
  contentWrite(conn, vectors, 'remove', { removed: [], added: [] }, () => {
    const row = conn.stmt('SELECT pk FROM documents WHERE doc_id = ?').get(docId) as { pk: number };
    removeDocumentRows(conn, row.pk);
  });
const rows = (db: Database.Database, table: string) =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

/** Every block row of `keyword_blocks`, its bytes in hex. */
const mergedRows = (db: Database.Database) =>
  db
    .prepare(
      'SELECT term, first_pk, last_pk, count, max_tf, min_length, hex(data) AS data FROM keyword_blocks ORDER BY term, first_pk',
    )
    .all();

/** Every term's postings over both tables as "term pk doc tf length" lines; checks each row's bounds. */
function postings(db: Database.Database): string {
  const lines: string[] = [];
  const decoded = new DecodedBlock();
  for (const table of ['keyword_blocks', 'keyword_recent'])
    for (const row of db
      .prepare(`SELECT term, first_pk, last_pk, count, max_tf, min_length, data FROM ${table}`)
      .all() as {
      term: string;
      first_pk: number;
      last_pk: number;
      count: number;
      max_tf: number;
      min_length: number;
      data: Uint8Array;
    }[]) {
      decoded.decode(row.data, row.first_pk, row.count);
      expect(decoded.pk[row.count - 1]).toBe(row.last_pk);
      expect(Math.max(...decoded.tf.subarray(0, row.count))).toBe(row.max_tf);
      expect(Math.min(...decoded.length.subarray(0, row.count))).toBe(row.min_length);
      expect(row.count).toBeLessThanOrEqual(BLOCK_SIZE);
      for (let i = 0; i < decoded.size; i++)
        lines.push(`${row.term} ${decoded.pk[i]} ${decoded.doc[i]} ${decoded.tf[i]} ${decoded.length[i]}`);
    }
  // Term, then pk order (numeric), whichever table a block is in.
  return lines
    .map((line) => line.split(' '))
    .sort((a, b) => (a[0] as string).localeCompare(b[0] as string) || Number(a[1]) - Number(b[1]))
    .map((parts) => parts.join(' '))
    .join('\n');
}

/** A term's blocks over both tables in first_pk order ascend and do not overlap (what the ranking reads). */
function expectAscending(db: Database.Database): void {
  const blocks = db
    .prepare(
      `SELECT term, first_pk, last_pk FROM keyword_blocks UNION ALL SELECT term, first_pk, last_pk FROM keyword_recent
       ORDER BY term, first_pk`,
    )
    .all() as { term: string; first_pk: number; last_pk: number }[];
  for (let i = 1; i < blocks.length; i++) {
    const [before, block] = [blocks[i - 1], blocks[i]] as [(typeof blocks)[0], (typeof blocks)[0]];
    if (before.term === block.term) expect(block.first_pk).toBeGreaterThan(before.last_pk);
  }
}

describe('keyword postings merge', () => {
  it('writes the merged blocks byte for byte as appending every batch to keyword_blocks does', () => {
    const input = batches(3, 30);
    mergePolicy.rows = 1;
    const every = open('every.db');
    for (const batch of input) put(every, batch);
    expect(rows(every.conn.db, 'keyword_recent')).toBe(0);
    mergePolicy.rows = 600;
    const some = open('some.db');
    let sawBoth = false;
    for (const batch of input) {
      put(some, batch);
      sawBoth ||= rows(some.conn.db, 'keyword_recent') > 0 && rows(some.conn.db, 'keyword_blocks') > 0;
    }
    // Merges happened, and recent rows were left between them.
    expect(sawBoth).toBe(true);
    expect(postings(some.conn.db)).toBe(postings(every.conn.db));
    expectAscending(some.conn.db);
    contentWrite(some.conn, some.vectors, 'merge', { removed: [], added: [] }, () => mergeRecent(some.conn));
    expect(rows(some.conn.db, 'keyword_recent')).toBe(0);
    const merged = mergedRows(some.conn.db);
    expect(merged.length).toBeGreaterThan(100);
    expect(merged).toEqual(mergedRows(every.conn.db));
    // A frequent term spans many full blocks.
    expect(
      (some.conn.db.prepare("SELECT count(*) AS n FROM keyword_blocks WHERE term = 'alpha'").get() as { n: number }).n,
    ).toBeGreaterThan(3);
    every.conn.close();
    some.conn.close();
  });

  it('keeps what FTS5 indexed through merges, replacements, deletions and another connection', () => {
    mergePolicy.rows = 300;
    const path = join(root, 'mixed.db');
    const a = open('mixed.db');
    const input = batches(9, 24);
    for (const batch of input.slice(0, 8)) put(a, batch);
    // Replacements of documents whose postings are merged and of ones still recent, and deletions of both.
    put(a, [
      ...(input[8] as DocumentWrite[]),
      { ...(input[0]?.[2] as DocumentWrite) },
      { ...(input[7]?.[5] as DocumentWrite) },
    ]);
    remove(a, 'doc-1');
    remove(a, `doc-${7 * 12 + 1}`);
    const b = open('mixed.db');
    for (const batch of input.slice(9, 14)) put(b, batch);
    for (const batch of input.slice(14, 20)) put(a, batch);
    // A transaction that writes and merges, then fails: none of it stays.
    expect(() =>
      contentWrite(a.conn, a.vectors, 'failing', { removed: [], added: [] }, () => {
        insertDocuments(a.conn, input[20] as DocumentWrite[], { removed: [], added: [] });
        mergeRecent(a.conn);
        throw new Error('fails after merging');
      }),
    ).toThrow(/failing/);
    for (const batch of input.slice(21)) put(a, batch);
    put(b, [{ ...(input[21]?.[0] as DocumentWrite) }]);
    a.conn.close();
    b.conn.close();

    const db = new Database(path, { readonly: true });
    expect(rows(db, 'keyword_recent')).toBeGreaterThan(0);
    expect(rows(db, 'keyword_blocks')).toBeGreaterThan(0);
    expect(db.prepare("SELECT count(*) AS n FROM documents WHERE doc_id = 'doc-1'").get()).toEqual({ n: 0 });
    expectAscending(db);
    const written = postings(db);
    db.close();
    const copy = join(root, 'mixed-copy.db');
    const source = new Database(path);
    source.exec(`VACUUM INTO '${copy}'`);
    source.close();
    const rebuilt = new Database(copy);
    rebuilt.exec('DELETE FROM keyword_blocks; DELETE FROM keyword_recent; DELETE FROM keyword_doc_terms;');
    backfillKeywordPostings(rebuilt);
    expect(written).toBe(postings(rebuilt));
    rebuilt.close();
  });
});
