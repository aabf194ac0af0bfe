import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../testing/seeded-random.ts';
import { documentWrite } from '../../../testing/store-conformance/fixtures.ts';
import { SqliteConnection } from '../connection.ts';
import { contentWrite, insertDocuments } from '../document-writes.ts';
import { openSqliteStore } from '../store.ts';
import { VectorCache } from '../vectors/vector-cache.ts';
import { backfillKeywordPostings } from './backfill.ts';
import { BLOCK_SIZE, DecodedBlock } from './block-codec.ts';
import { lastDocOf, PostingsTails } from './postings-tails.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-postings-tails-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const random = seededRandom(5);
/** A chunk: a few words every chunk has (their tails fill and spill into new blocks), some rarer ones, one odd token. */
function text(): string {
  const words = ['alpha', 'beta', 'gamma'];
  for (let i = 0; i < 6; i++) words.push(`w${Math.floor(random() * 40)}`);
  if (random() < 0.3) words.push('Straße', 'ID-42');
  return words.join(' ');
}
const write = (docId: string, chunks: number) =>
  documentWrite({
    docId,
    chunks: Array.from({ length: chunks }, () => {
      const t = text();
      return { text: t, keywords: t, vector: new Float32Array(8).fill(0.5) };
    }),
  });

/** Every term's postings (merged and recent blocks) as "term pk doc tf length" lines, in term and pk order. */
function postings(db: Database.Database): string {
  const lines: string[] = [];
  const decoded = new DecodedBlock();
  for (const row of db
    .prepare(
      `SELECT term, first_pk, last_pk, count, max_tf, min_length, data FROM keyword_blocks
       UNION ALL SELECT term, first_pk, last_pk, count, max_tf, min_length, data FROM keyword_recent
       ORDER BY term, first_pk`,
    )
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
    // The row's bounds agree with its postings.
    expect(decoded.pk[row.count - 1]).toBe(row.last_pk);
    expect(Math.max(...decoded.tf.subarray(0, row.count))).toBe(row.max_tf);
    expect(Math.min(...decoded.length.subarray(0, row.count))).toBe(row.min_length);
    expect(row.count).toBeLessThanOrEqual(BLOCK_SIZE);
    for (let i = 0; i < decoded.size; i++)
      lines.push(`${row.term} ${decoded.pk[i]} ${decoded.doc[i]} ${decoded.tf[i]} ${decoded.length[i]}`);
  }
  return lines.join('\n');
}

/** The postings `backfillKeywordPostings` makes from what FTS5 indexed in a copy of the store. */
function expectMatchesFts(path: string): void {
  const db = new Database(path, { readonly: true });
  const written = postings(db);
  db.close();
  const copy = join(root, `copy-${Math.floor(random() * 1e9)}.db`);
  const source = new Database(path);
  source.exec(`VACUUM INTO '${copy}'`);
  source.close();
  const rebuilt = new Database(copy);
  rebuilt.exec('DELETE FROM keyword_blocks; DELETE FROM keyword_recent; DELETE FROM keyword_doc_terms;');
  backfillKeywordPostings(rebuilt);
  expect(written).toBe(postings(rebuilt));
  rebuilt.close();
}

describe('keyword postings tails cache', () => {
  it('appends to tails it holds, and drops them when another connection writes or a transaction fails', async () => {
    const path = join(root, 'shared.db');
    const a = await openSqliteStore(path);
    const b = await openSqliteStore(path);
    // Batches from one connection (its cache in use), then the other's between (the first's cache is stale).
    await a.putDocuments(Array.from({ length: 40 }, (_, d) => write(`a-${d}`, 1 + (d % 4))));
    await a.putDocuments(Array.from({ length: 40 }, (_, d) => write(`a2-${d}`, 2)));
    await b.putDocuments(Array.from({ length: 30 }, (_, d) => write(`b-${d}`, 3)));
    await a.putDocuments(Array.from({ length: 20 }, (_, d) => write(`a3-${d}`, 2)));
    // A replacement and a deletion inside the run, then more batches.
    await a.putDocuments([write('a-3', 5), write('a-new', 2)]);
    await a.deleteDocument('a2-39');
    await a.putDocuments(Array.from({ length: 20 }, (_, d) => write(`a4-${d}`, 2)));
    // A transaction that wrote its postings and then failed: nothing of it stays, in the store or the cache.
    const conn = SqliteConnection.open(path);
    const vectors = new VectorCache(conn);
    expect(() =>
      contentWrite(conn, vectors, 'failing write', { removed: [], added: [] }, () => {
        insertDocuments(conn, [write('failed-1', 3), write('failed-2', 3)], { removed: [], added: [] });
        throw new Error('fails after the postings were written');
      }),
    ).toThrow(/failing write/);
    contentWrite(conn, vectors, 'write after the failure', { removed: [], added: [] }, () =>
      insertDocuments(conn, [write('after-1', 3)], { removed: [], added: [] }),
    );
    conn.close();
    await b.putDocuments(Array.from({ length: 10 }, (_, d) => write(`b2-${d}`, 2)));
    await a.putDocuments(Array.from({ length: 10 }, (_, d) => write(`a5-${d}`, 2)));
    await a.close();
    await b.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT count(*) AS n FROM documents WHERE doc_id LIKE 'failed-%'").get()).toEqual({ n: 0 });
    // Frequent terms spilled over several blocks.
    const blocks = db
      .prepare(
        "SELECT (SELECT count(*) FROM keyword_blocks WHERE term = 'alpha') + (SELECT count(*) FROM keyword_recent WHERE term = 'alpha') AS n",
      )
      .get() as { n: number };
    expect(blocks.n).toBeGreaterThan(2);
    db.close();
    expectMatchesFts(path);
  });

  it('holds tails only for the generation it was filled at', () => {
    const path = join(root, 'generations.db');
    const conn = SqliteConnection.open(path);
    const tails = new PostingsTails();
    const batch = {};
    tails.begin(conn, batch, 7);
    expect(tails.complete).toBe(true);
    tails.set('t', { firstPk: 1, lastPk: 2, lastDoc: 1, count: 2, maxTf: 1, minLength: 3, data: new Uint8Array(8) });
    // The same batch, later in its transaction: kept.
    tails.begin(conn, batch, 7);
    expect(tails.get('t')).toBeDefined();
    tails.committed(8);
    // Another batch at the committed generation: kept; at another: dropped.
    tails.begin(conn, {}, 8);
    expect(tails.get('t')).toBeDefined();
    tails.committed(9);
    tails.begin(conn, {}, 10);
    expect(tails.get('t')).toBeUndefined();
    tails.set('u', { firstPk: 1, lastPk: 1, lastDoc: 1, count: 1, maxTf: 1, minLength: 1, data: new Uint8Array(4) });
    tails.failed();
    tails.begin(conn, {}, 10);
    expect(tails.get('u')).toBeUndefined();
    conn.close();
  });

  it('drops the oldest tails past its capacity, and then reads terms it does not hold from the store', () => {
    const conn = SqliteConnection.open(join(root, 'capacity.db'));
    const tails = new PostingsTails(1_000);
    tails.begin(conn, {}, 1);
    expect(tails.complete).toBe(true);
    const tail = { firstPk: 1, lastPk: 1, lastDoc: 1, count: 1, maxTf: 1, minLength: 1, data: new Uint8Array(200) };
    for (const term of ['a', 'b', 'c', 'd', 'e']) tails.set(term, { ...tail });
    expect(tails.get('a')).toBeUndefined();
    expect(tails.get('e')).toBeDefined();
    expect(tails.complete).toBe(false);
    conn.close();
  });

  it('reads the last document of a stored block', () => {
    // Postings (pk gap, tf, length, zigzag doc gap): docs 5, 3, 300.
    const data = Uint8Array.from([0, 1, 2, 10, 1, 1, 2, 3, 1, 1, 2, 0xd2, 0x04]);
    expect(lastDocOf(data, 3)).toBe(300);
  });
});
