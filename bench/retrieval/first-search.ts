/**
 * A fresh process's first searches, before/after: each run is a new Node process (module load and JIT included) that
 * opens an existing store, checks its embedder and answers a few full hybrid searches (offline rerank), timed one by
 * one; this checkout and another (`--compare`, a checkout with a `node_modules` link beside its `src/`) alternate
 * process by process, so load from other work touches both alike. The store is one
 * `npm run bench:retrieval -- --store-dir <dir>` built (`<dir>/size-<n>`); it is only read.
 *
 *   node --import tsx bench/retrieval/first-search.ts --store <dir with bench.db> --compare <checkout>
 *        [--runs 5] [--searches 3] [--seed 42]
 *
 * Rows: module load; open (createEvident + the embedder check); the first, second and third search; the open and the
 * first search together (what a CLI call or a new server worker waits for after its modules are loaded); the
 * process's CPU up to the end of its last search (all threads).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateQueries, SyntheticCorpus } from './corpus.ts';
import { profiled } from './profiler.ts';
import { summarize } from './stats.ts';

const { values: flags } = parseArgs({
  options: {
    store: { type: 'string' },
    compare: { type: 'string' },
    runs: { type: 'string', default: '5' },
    searches: { type: 'string', default: '3' },
    seed: { type: 'string', default: '42' },
    // Internal: one measured process (the checkout's src/ and the query index to start from).
    child: { type: 'string' },
    query: { type: 'string', default: '0' },
    // With --child: write a CPU profile of the open and the searches (module load excluded) into this folder.
    'profile-dir': { type: 'string' },
  },
  strict: true,
});
if (!flags.store) throw new Error('usage: --store <dir with bench.db> [--compare <checkout>]');

const MEMBER = { id: 'bench-user', groups: ['engineering', 'support'], roles: ['member'] };
const dir = resolve(flags.store);
const searches = Number(flags.searches);

interface ChildResult {
  importMs: number;
  openMs: number;
  searchMs: number[];
  cpuMs: number;
}

async function child(src: string): Promise<void> {
  const record = JSON.parse(readFileSync(join(dir, 'ingest.json'), 'utf8')) as { documents: number };
  const seed = Number(flags.seed);
  const queries = generateQueries(new SyntheticCorpus({ seed }), record.documents, 50, seed + 3);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { createEvident } = await import(join(src, 'evident.ts'));
  const { loadConfig } = await import(join(src, 'config/index.ts'));
  const imported = performance.now();
  const config = loadConfig({
    env: {},
    cwd: dir,
    flags: { reranker: 'offline', retrieval: { channels: ['bm25', 'vector'] }, db: join(dir, 'bench.db') },
  });
  let opened = 0;
  const searchMs: number[] = [];
  const evident = await profiled(flags['profile-dir'], 'first-search', async () => {
    const evident = await createEvident(config);
    await evident.assertEmbedderMatches();
    opened = performance.now();
    for (let i = 0; i < searches; i++) {
      const query = queries[(Number(flags.query) + i) % queries.length] as { text: string };
      const t = performance.now();
      await evident.search.search(query.text, MEMBER);
      searchMs.push(performance.now() - t);
    }
    return evident;
  });
  const used = process.cpuUsage(cpu);
  await evident.close();
  const result: ChildResult = {
    importMs: imported - started,
    openMs: opened - imported,
    searchMs,
    cpuMs: (used.user + used.system) / 1000,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runChild(src: string, query: number): Promise<ChildResult> {
  return new Promise((done, fail) => {
    const args = ['--import', 'tsx', import.meta.filename, '--store', dir, '--child', src];
    args.push('--searches', String(searches), '--seed', String(flags.seed), '--query', String(query));
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('error', fail);
    proc.on('exit', (code) => {
      if (code !== 0) fail(new Error(`child exited with ${code}`));
      else done(JSON.parse(out.trim().split('\n').at(-1) as string) as ChildResult);
    });
  });
}

if (flags.child) {
  await child(flags.child);
} else {
  const sides = [
    { name: 'this checkout', src: resolve(import.meta.dirname, '../../src') },
    ...(flags.compare ? [{ name: '--compare', src: resolve(flags.compare, 'src') }] : []),
  ];
  const results = new Map<string, ChildResult[]>(sides.map((side) => [side.name, []]));
  const loadBefore = loadavg()[0] ?? 0;
  const started = performance.now();
  for (let run = 0; run < Number(flags.runs); run++) {
    const order = run % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const result = await runChild(side.src, run * searches);
      results.get(side.name)?.push(result);
      process.stderr.write(`${side.name} run ${run}: ${JSON.stringify(result)}\n`);
    }
  }
  const cell = (values: number[]) => {
    const stats = summarize(values);
    return `${stats.p50.toFixed(0)} / ${stats.max.toFixed(0)}`;
  };
  const rows: [string, (r: ChildResult) => number][] = [
    ['module load', (r) => r.importMs],
    ['open (createEvident + embedder check)', (r) => r.openMs],
    ...Array.from({ length: searches }, (_, i): [string, (r: ChildResult) => number] => [
      `search ${i + 1} (hybrid + offline rerank)`,
      (r) => r.searchMs[i] ?? Number.NaN,
    ]),
    ['open + first search', (r) => r.openMs + (r.searchMs[0] ?? Number.NaN)],
    ['process CPU to the last search', (r) => r.cpuMs],
  ];
  const lines = [
    `| ms, p50 / max of ${flags.runs} processes | ${sides.map((s) => s.name).join(' | ')} |`,
    `| --- | ${sides.map(() => '---:').join(' | ')} |`,
    ...rows.map(
      ([name, of]) => `| ${name} | ${sides.map((s) => cell((results.get(s.name) ?? []).map(of))).join(' | ')} |`,
    ),
  ];
  process.stdout.write(
    `${lines.join('\n')}\n\nsides alternating per process; load average ${loadBefore.toFixed(2)} → ` +
      `${(loadavg()[0] ?? 0).toFixed(2)}, ${((performance.now() - started) / 1000).toFixed(0)} s.\n`,
  );
}
