/**
 * The keyword channel reading postings split between `keyword_recent` and `keyword_blocks`, against the same store
 * after the merge: a copy of `--onto` (a store built by `bench/retrieval/run.ts`) takes the recorded writes of
 * `store-writes.ts --record` (renamed so they add to it; 64 documents a transaction, so they stay in the recent table
 * when they are fewer than its merge threshold), a second copy is merged, and the same queries (three words of a
 * replayed chunk, so their terms are in both tables) run on both, alternating, as an admin. Prints the CPU per search
 * of each and how many searches returned the same chunks with the same scores.
 *
 *   node --import tsx bench/ingest/recent-postings-read.ts --writes /tmp/writes-10k.bin --onto <store.db> --queries 200
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { deserialize } from 'node:v8';
import Database from 'better-sqlite3';
import type { Principal } from '../../src/domain/index.ts';
import type { DocumentWrite } from '../../src/store/ports/document-store.ts';
import { SqliteConnection } from '../../src/store/sqlite/connection.ts';
import { contentWrite } from '../../src/store/sqlite/document-writes.ts';
import { mergeRecent } from '../../src/store/sqlite/keyword-postings/postings-merge.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { VectorCache } from '../../src/store/sqlite/vectors/vector-cache.ts';
import { seededRandom } from '../../src/testing/seeded-random.ts';

const { values: flags } = parseArgs({
  options: {
    writes: { type: 'string' },
    onto: { type: 'string' },
    queries: { type: 'string', default: '200' },
    seed: { type: 'string', default: '7' },
  },
  strict: true,
});
if (!flags.writes || !flags.onto) throw new Error('--writes <recorded writes> and --onto <store.db>');

/** `value` with every string that starts with `docId` prefixed (as `store-writes.ts --onto` renames). */
function renamed(value: unknown, docId: string): unknown {
  if (typeof value === 'string') return value.startsWith(docId) ? `replayed/${value}` : value;
  if (Array.isArray(value)) return value.map((item) => renamed(item, docId));
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renamed(item, docId)]));
}

const dir = mkdtempSync(join(tmpdir(), 'evident-recent-read-'));
try {
  const split = join(dir, 'split.db');
  const merged = join(dir, 'merged.db');
  copyFileSync(resolve(flags.onto), split);
  const writes = (deserialize(readFileSync(resolve(flags.writes))) as DocumentWrite[][]).flat();
  const writer = await openSqliteStore(split);
  for (let i = 0; i < writes.length; i += 64)
    await writer.putDocuments(writes.slice(i, i + 64).map((w) => renamed(w, w.document.docId) as DocumentWrite));
  await writer.close();
  const db = new Database(split);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const rows = db
    .prepare('SELECT (SELECT count(*) FROM keyword_recent) AS recent, (SELECT count(*) FROM keyword_blocks) AS merged')
    .get() as { recent: number; merged: number };
  db.close();
  copyFileSync(split, merged);
  const conn = SqliteConnection.open(merged);
  contentWrite(conn, new VectorCache(conn), 'merge', { removed: [], added: [] }, () => mergeRecent(conn));
  conn.close();

  const random = seededRandom(Number(flags.seed));
  const queries: string[][] = [];
  for (let tries = 0; queries.length < Number(flags.queries) && tries < 100_000; tries++) {
    const write = writes[Math.floor(random() * writes.length)] as DocumentWrite;
    const words = (write.keywordText[0] ?? '').split(' ').filter((term) => /^[a-z]+$/.test(term));
    if (words.length >= 3) queries.push([0, 1, 2].map(() => words[Math.floor(random() * words.length)] as string));
  }
  const admin: Principal = { id: 'root', groups: [], roles: ['admin'] };
  const stores = [await openSqliteStore(split), await openSqliteStore(merged)];
  const cpu: number[][] = [[], []];
  let same = 0;
  for (const [q, terms] of queries.entries()) {
    const results: string[] = [];
    // The order alternates per query.
    for (const i of q % 2 === 0 ? [0, 1] : [1, 0]) {
      const before = process.cpuUsage();
      const found = await (stores[i] as (typeof stores)[0]).keywordSearch(terms, admin, 10);
      const used = process.cpuUsage(before);
      (cpu[i] as number[]).push((used.user + used.system) / 1000);
      results[i] = JSON.stringify(found.map((hit) => [hit.chunkId, hit.score]));
    }
    if (results[0] === results[1]) same++;
  }
  for (const store of stores) await store.close();
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
  const mean = (values: number[]) => values.reduce((sum, x) => sum + x, 0) / values.length;
  console.log(
    `${rows.recent} recent rows beside ${rows.merged} merged; ${queries.length} queries, load ${loadavg()[0]?.toFixed(1)}`,
  );
  for (const [i, name] of ['split', 'merged'].entries())
    console.log(
      `${name}: CPU ms per search median ${median(cpu[i] as number[]).toFixed(2)}, mean ${mean(cpu[i] as number[]).toFixed(2)}`,
    );
  console.log(`same chunks and scores: ${same}/${queries.length}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
