/**
 * Start-up of whole CLI processes, as a user meets them: `evident --help`, `evident search` and `evident ask` (offline)
 * on the sample corpus, beside bare `node -e 0` measured in the same run. Each command runs `--runs` times (default 5)
 * in a process group of its own; the table shows the median wall time, the median above bare Node, the median peak
 * RSS (GNU time's maximum resident set size) and how many processes were still in the group when the command exited.
 *
 *   npm run bench:startup -- [--runs 5] [--checkout <dir>] [--label after] [--json out.json (default bench/startup/last-run.json)]
 *
 * `--checkout` measures another checkout's `bin/evident.js` (e.g. a `git worktree` of an earlier commit with its own
 * or a symlinked node_modules), with its own sample store, so before and after are measured by the same script.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    checkout: { type: 'string', default: resolve(import.meta.dirname, '../..') },
    label: { type: 'string', default: 'this checkout' },
    json: { type: 'string', default: resolve(import.meta.dirname, 'last-run.json') },
  },
});
const runs = Number(flags.runs);
const checkout = resolve(flags.checkout);
const bin = join(checkout, 'bin', 'evident.js');
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) throw new Error('bench:startup needs GNU time at /usr/bin/time (Debian: apt-get install time)');

const work = mkdtempSync(join(tmpdir(), 'evident-startup-'));
const db = join(work, 'evident.db');
// Offline: no chat model, no tracing, the default embedder and reranker, whatever the caller's shell has set.
const env: NodeJS.ProcessEnv = { ...process.env };
for (const name of Object.keys(env)) if (name.startsWith('EVIDENT_') || name.startsWith('OTEL_')) delete env[name];

interface Sample {
  wallMs: number;
  rssKiB: number;
  leftBehind: number;
  exitCode: number | null;
}

/** Pids still in process group `pgid` (ps lists the group's members; the group leader has exited). */
function groupMembers(pgid: number): number[] {
  const ps = spawnSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
}

/** One process, in a process group of its own (GNU time leads it and runs the command as its child). */
function runOnce(args: readonly string[]): Promise<Sample> {
  const rssFile = join(work, 'rss.txt');
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(TIME, ['-f', '%M', '-o', rssFile, process.execPath, ...args], {
      cwd: work,
      env,
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', reject);
    // 'exit', not 'close': a process left behind could hold an inherited pipe open forever.
    child.on('exit', (exitCode) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const pgid = child.pid as number;
      const left = groupMembers(pgid);
      if (left.length > 0) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {}
      }
      const rssKiB = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
      resolvePromise({ wallMs, rssKiB, leftBehind: left.length, exitCode });
    });
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const commands: { name: string; args: string[] }[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'evident --help', args: [bin, '--help'] },
  { name: 'evident search', args: [bin, '--db', db, 'search', 'hotel limit in London'] },
  { name: 'evident ask (offline)', args: [bin, '--db', db, 'ask', 'What is the nightly hotel limit in London?'] },
];

try {
  const ingest = spawnSync(process.execPath, [bin, '--db', db, 'ingest', join(checkout, 'samples', 'corpus')], {
    cwd: work,
    env,
    encoding: 'utf8',
  });
  if (ingest.status !== 0) throw new Error(`ingesting the sample corpus failed:\n${ingest.stderr}`);

  const samples = new Map<string, Sample[]>(commands.map((command) => [command.name, []]));
  // Round-robin, so a change in the machine's load touches every command alike; one unmeasured warm-up round first.
  for (const command of commands) await runOnce(command.args);
  for (let round = 0; round < runs; round++) {
    for (const command of commands) samples.get(command.name)?.push(await runOnce(command.args));
  }

  const bare = median((samples.get('node -e 0') ?? []).map((s) => s.wallMs));
  const rows = commands.map((command) => {
    const list = samples.get(command.name) ?? [];
    const wall = median(list.map((s) => s.wallMs));
    return {
      command: command.name,
      median_ms: Math.round(wall),
      above_node_ms: Math.round(wall - bare),
      min_ms: Math.round(Math.min(...list.map((s) => s.wallMs))),
      max_ms: Math.round(Math.max(...list.map((s) => s.wallMs))),
      peak_rss_mib: Math.round(median(list.map((s) => s.rssKiB)) / 1024),
      left_behind: Math.max(...list.map((s) => s.leftBehind)),
      failed_runs: list.filter((s) => s.exitCode !== 0).length,
    };
  });
  const report = {
    label: flags.label,
    checkout,
    runs,
    node: process.version,
    load_average: loadavg().map((load) => Number(load.toFixed(2))),
    date: new Date().toISOString(),
    rows,
  };
  console.log(`${flags.label}: ${checkout} (median of ${runs}; load ${report.load_average.join(' ')})`);
  console.log('| command | median ms | above `node -e 0` | min–max ms | peak RSS MiB | left behind | failed |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.command} | ${row.median_ms} | ${row.command === 'node -e 0' ? '—' : `+${row.above_node_ms}`} | ` +
        `${row.min_ms}–${row.max_ms} | ${row.peak_rss_mib} | ${row.left_behind} | ${row.failed_runs} |`,
    );
  }
  writeFileSync(resolve(flags.json), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${resolve(flags.json)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
