/**
 * Server load benchmark: N streamed runs started at once against one server, each stream read to its end; per-run
 * time to first event and to completion, throughput. See bench/server/README.md.
 *
 *   npm run bench:server -- [--runs 50] [--warmup 5] [--repeat 1] [--workers 1] [--cpu-prof dir] [--json out.json]
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeEnvironment } from '../environment.ts';
import type { ServerCpu, ServerReady, ServerUsage } from './bench-server.ts';
import { runLoad, STREAM_MODES, type RunSample } from './load.ts';
import {
  formatServerReport,
  summarizeLoad,
  throughputOf,
  type BatchFigures,
  type ServerBenchReport,
} from './report.ts';

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '5' },
    repeat: { type: 'string', default: '1' },
    workers: { type: 'string', default: '1' },
    'cpu-prof': { type: 'string' },
    json: { type: 'string' },
  },
  strict: true,
});

const count = (name: string, value: string, min: number): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new Error(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return parsed;
};

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/**
 * Starts bench-server.ts in a child process and resolves with its first output line (URL and keys). With `cpuProfDir`
 * the server writes a V8 CPU profile there when it exits (`node --cpu-prof`).
 */
function startServer(
  cpuProfDir: string | undefined,
  workers: number,
): Promise<{ child: ChildProcessByStdio<Writable, Readable, null>; ready: ServerReady; lines: AsyncIterator<string> }> {
  const script = resolve(fileURLToPath(import.meta.url), '../bench-server.ts');
  const profile = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(cpuProfDir)}`] : [];
  const child = spawn(process.execPath, [...process.execArgv, ...profile, script], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, EVIDENT_BENCH_WORKERS: String(workers) },
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`the server exited with code ${code} before it listened`)));
    void lines
      .next()
      .then(({ value }) => done({ child, ready: JSON.parse(String(value)) as ServerReady, lines }), fail);
  });
}

/** The server's CPU time so far (it answers a `usage` line on its stdin). */
async function serverCpu(
  child: ChildProcessByStdio<Writable, Readable, null>,
  lines: AsyncIterator<string>,
): Promise<number> {
  child.stdin.write('usage\n');
  const { value, done } = await lines.next();
  if (done) throw new Error('the server exited');
  const cpu = JSON.parse(String(value)) as ServerCpu;
  return cpu.cpuUserMs + cpu.cpuSystemMs;
}

async function main(): Promise<void> {
  const runs = count('runs', flags.runs, 1);
  const warmup = count('warmup', flags.warmup, 0);
  const repeat = count('repeat', flags.repeat, 1);
  const workers = count('workers', flags.workers, 1);
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  log('starting the server (ingesting the sample corpus)…');
  const { child, ready, lines } = await startServer(flags['cpu-prof'], workers);
  let server: ServerUsage | undefined;
  try {
    // Warm-up: one run at a time, so the JIT and the store's caches are warm before the measured batch.
    for (let i = 0; i < warmup; i++) await runLoad(ready.url, ready.keys, 1);
    const samples: RunSample[] = [];
    const batches: BatchFigures[] = [];
    for (let batch = 0; batch < repeat; batch++) {
      log(`${runs} concurrent streamed runs${repeat > 1 ? ` (batch ${batch + 1} of ${repeat})` : ''}…`);
      const cpuBefore = await serverCpu(child, lines);
      const load = await runLoad(ready.url, ready.keys, runs);
      const cpuMs = (await serverCpu(child, lines)) - cpuBefore;
      samples.push(...load.samples);
      batches.push({
        wallMs: load.wallMs,
        serverCpuMs: cpuMs,
        events: load.samples.reduce((total, sample) => total + sample.events, 0),
      });
    }
    child.stdin.end();
    const usage = await lines.next();
    server = usage.done ? undefined : (JSON.parse(usage.value) as ServerUsage);
    const report: ServerBenchReport = {
      environment: describeEnvironment('bench/server/run.ts', started, loadBefore),
      settings: { runs, warmup, repeat, workers, users: Object.keys(ready.keys).length, streamModes: STREAM_MODES },
      ...summarizeLoad(samples),
      throughput: throughputOf(runs, batches),
      server,
      samples,
    };
    process.stdout.write(`${formatServerReport(report)}\n`);
    if (flags.json) {
      writeFileSync(resolve(flags.json), `${JSON.stringify(report, null, 2)}\n`);
      log(`wrote ${resolve(flags.json)}`);
    }
    if (report.failures.length > 0) process.exitCode = 1;
  } finally {
    // A profiling server writes its profile as it exits: give it the time to, then make sure it is gone.
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      const timer = setTimeout(() => child.kill(), flags['cpu-prof'] ? 30_000 : 2_000);
      await exited;
      clearTimeout(timer);
    }
  }
}

await main();
