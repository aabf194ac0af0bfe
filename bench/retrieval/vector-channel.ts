/**
 * The SQLite vector channel alone, at a size where ingesting real text would take long: a store of N chunks with
 * clustered random unit vectors (written straight through `putDocument`), then
 *   - the first vector query of the process that wrote them (decodes vec0, and writes the snapshot if there is one),
 *   - the first vector query of a new process on the same file (`--child` re-runs this script for it),
 *   - p50/p95 of the channel over --queries queries at limit 100 (what HybridSearch asks) for an unfiltered reader
 *     and for readers who see 10% and 1% of the chunks.
 *
 *   npx tsx bench/retrieval/vector-channel.ts [--chunks 100000] [--dimension 512] [--queries 100] [--keep]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Principal } from '../../src/domain/index.ts';
import type { DocumentWrite } from '../../src/store/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { createRng } from './corpus.ts';
import { summarize } from './stats.ts';

const { values: flags } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    dimension: { type: 'string', default: '512' },
    queries: { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
    child: { type: 'string' },
  },
  strict: true,
});
const chunks = Number(flags.chunks);
const dimension = Number(flags.dimension);
const CHUNKS_PER_DOC = 50;
const CLUSTERS = 256;
const READERS: { share: string; principal: Principal }[] = [
  { share: '100%', principal: { id: 'reader-all', groups: ['all'], roles: ['member'] } },
  { share: '10%', principal: { id: 'reader-tenth', groups: ['tenth'], roles: ['member'] } },
  { share: '1%', principal: { id: 'reader-hundredth', groups: ['hundredth'], roles: ['member'] } },
];

/** Unit-variance-ish vectors around CLUSTERS centres: neighbours exist, as with real embeddings. */
function vectors(seed: number) {
  const next = createRng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
  const centres = Array.from({ length: CLUSTERS }, () => Float32Array.from({ length: dimension }, gauss));
  return () => {
    const centre = centres[Math.floor(next() * CLUSTERS)] as Float32Array;
    return Float32Array.from(centre, (value) => value + gauss() * 0.8);
  };
}

async function firstQuery(path: string): Promise<number> {
  const store = await openSqliteStore(path);
  const query = vectors(99)();
  const started = performance.now();
  await store.vectorSearch(query, READERS[0]?.principal as Principal, 100);
  const ms = performance.now() - started;
  await store.close();
  return ms;
}

async function main(): Promise<void> {
  if (flags.child) {
    process.stdout.write(String(await firstQuery(flags.child)));
    return;
  }
  const workDir = mkdtempSync(join(tmpdir(), 'evident-vector-'));
  const path = join(workDir, 'vectors.db');
  console.error(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const store = await openSqliteStore(path);
  const next = vectors(1);
  const started = performance.now();
  for (let doc = 0; doc * CHUNKS_PER_DOC < chunks; doc++) {
    const docId = `doc-${doc}`;
    const count = Math.min(CHUNKS_PER_DOC, chunks - doc * CHUNKS_PER_DOC);
    const acl = ['group:all', ...(doc % 10 === 0 ? ['group:tenth'] : []), ...(doc % 100 === 0 ? ['group:hundredth'] : [])];
    const write: DocumentWrite = {
      document: { docId, source: docId, title: docId, type: 'text', contentHash: docId, bytes: 1, acl, tags: [] },
      chunks: Array.from({ length: count }, (_, ordinal) => ({
        id: `${docId}#${ordinal}`,
        docId,
        ordinal,
        text: docId,
        headingPath: [],
        startOffset: 0,
        endOffset: 1,
      })),
      keywordText: Array.from({ length: count }, () => 'chunk'),
      vectors: Array.from({ length: count }, next),
      embedder: { id: 'bench-random', dimension },
      chapters: [],
      tables: [],
    };
    await store.putDocument(write);
  }
  console.error(`wrote ${chunks} vectors in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const queries = Array.from({ length: Number(flags.queries) + 10 }, vectors(7));
  const firstStarted = performance.now();
  await store.vectorSearch(queries[0] as Float32Array, READERS[0]?.principal as Principal, 100);
  const firstInWriter = performance.now() - firstStarted;
  const rows: string[] = [];
  for (const { share, principal } of READERS) {
    for (const warm of queries.slice(0, 10)) await store.vectorSearch(warm, principal, 100);
    const samples: number[] = [];
    for (const query of queries.slice(10)) {
      const t = performance.now();
      await store.vectorSearch(query, principal, 100);
      samples.push(performance.now() - t);
    }
    const s = summarize(samples);
    rows.push(`| vector channel, reader sees ${share} (limit 100) | ${s.p50.toFixed(2)} | ${s.p95.toFixed(2)} |`);
  }
  await store.close();
  const fresh = Array.from({ length: 3 }, () =>
    Number(execFileSync(process.execPath, [...process.execArgv, process.argv[1] as string, '--child', path], { encoding: 'utf8' })),
  );
  console.log(`${chunks} × ${dimension} vectors; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('| measure | p50 ms | p95 ms |');
  console.log('|---|---:|---:|');
  for (const row of rows) console.log(row);
  console.log(`| first vector query, process that wrote the store | ${firstInWriter.toFixed(0)} | |`);
  console.log(`| first vector query, new process (3 runs) | ${fresh.map((ms) => ms.toFixed(0)).join(' / ')} | |`);
  if (flags.keep) console.error(`kept ${path}`);
  else rmSync(workDir, { recursive: true, force: true });
}

await main();
