/**
 * Latency of the SQLite store's search channels at scale: N chunks × D dims of random unit vectors, random keyword
 * text, 1 in 3 documents restricted to a group. Prints a table and writes JSON next to the database.
 *
 *   node --import tsx bench/store/sqlite-search.ts [chunks=100000] [dims=384,256]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../../src/domain/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { DocumentWrite } from '../../src/store/store.ts';

const chunksTotal = Number(process.argv[2] ?? 100_000);
const dimsList = (process.argv[3] ?? '384,256').split(',').map(Number);
const perDoc = 100;
const queries = 200;

let seed = 42;
const next = (): number => {
  seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
  return seed / 4_294_967_296;
};
const unit = (dims: number): Float32Array => {
  const v = Float32Array.from({ length: dims }, () => next() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
// Zipf-ish word choice so some terms are common and most are rare.
const word = (): string => vocabulary[Math.floor(vocabulary.length * next() ** 3)] as string;

const percentile = (values: number[], p: number): number => {
  const sortedValues = [...values].sort((a, b) => a - b);
  return sortedValues[Math.min(sortedValues.length - 1, Math.ceil((p / 100) * sortedValues.length) - 1)] as number;
};

const admin: Principal = { id: 'root', groups: [], roles: ['admin'] };
const member: Principal = { id: 'carol', groups: ['hr'], roles: ['member'] };

const results: Record<string, unknown>[] = [];
for (const dims of dimsList) {
  const dir = mkdtempSync(join(tmpdir(), 'evident-bench-'));
  const store = await openSqliteStore(join(dir, 'bench.db'));
  let started = performance.now();
  for (let doc = 0; doc < chunksTotal / perDoc; doc++) {
    const docId = `doc-${doc}.md`;
    const texts = Array.from({ length: perDoc }, () => Array.from({ length: 60 }, word).join(' '));
    const write: DocumentWrite = {
      document: {
        docId,
        source: docId,
        title: docId,
        type: 'markdown',
        contentHash: docId,
        bytes: 1,
        acl: doc % 3 === 0 ? ['group:legal'] : [],
        tags: [],
      },
      chunks: texts.map((text, ordinal) => ({
        id: `${docId}#${ordinal}`,
        docId,
        ordinal,
        text,
        headingPath: [],
        startOffset: 0,
        endOffset: 1,
      })),
      keywordText: texts,
      vectors: texts.map(() => unit(dims)),
      embedder: { id: 'bench', dimension: dims },
      chapters: [],
      tables: [],
    };
    await store.putDocument(write);
  }
  const buildMs = performance.now() - started;

  // First query loads the in-memory matrix from the vec0 table.
  started = performance.now();
  await store.vectorSearch(unit(dims), admin, 10);
  const loadMs = performance.now() - started;
  const time = async (fn: () => Promise<unknown>): Promise<number[]> => {
    for (let i = 0; i < 10; i++) await fn();
    const samples: number[] = [];
    for (let i = 0; i < queries; i++) {
      const t = performance.now();
      await fn();
      samples.push(performance.now() - t);
    }
    return samples;
  };
  const rows = {
    'vectorSearch admin (k=100)': await time(() => store.vectorSearch(unit(dims), admin, 100)),
    'vectorSearch member, 2/3 visible (k=100)': await time(() => store.vectorSearch(unit(dims), member, 100)),
    'keywordSearch member, 3 terms (k=100)': await time(() =>
      store.keywordSearch([word(), word(), word()], member, 100),
    ),
    'hybrid member (both channels, k=100)': await time(async () => {
      await store.keywordSearch([word(), word(), word()], member, 100);
      await store.vectorSearch(unit(dims), member, 100);
    }),
  };
  process.stdout.write(
    `\n${chunksTotal} chunks × ${dims} dims — build ${(buildMs / 1000).toFixed(1)} s, index load ${loadMs.toFixed(0)} ms\n`,
  );
  process.stdout.write('| query | p50 ms | p95 ms |\n|---|---:|---:|\n');
  for (const [label, samples] of Object.entries(rows)) {
    process.stdout.write(
      `| ${label} | ${percentile(samples, 50).toFixed(2)} | ${percentile(samples, 95).toFixed(2)} |\n`,
    );
    results.push({
      chunks: chunksTotal,
      dims,
      query: label,
      p50: percentile(samples, 50),
      p95: percentile(samples, 95),
    });
  }
  results.push({ chunks: chunksTotal, dims, buildMs, loadMs });
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
writeFileSync(join(tmpdir(), 'evident-sqlite-search-bench.json'), JSON.stringify(results, null, 2));
