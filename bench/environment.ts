import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where and how a benchmark ran, printed at the top of every report so two runs can be compared fairly. */
export interface Environment {
  date: string;
  node: string;
  platform: string;
  cpus: string;
  nproc: number;
  memoryGiB: number;
  commit: string;
  /** 1-minute load average before and after the run: other work on the machine skews latencies. */
  loadBefore: number;
  loadAfter: number;
  totalSeconds: number;
  command: string;
}

const repo = resolve(fileURLToPath(import.meta.url), '../..');

/** The short HEAD commit, marked when src/ has uncommitted changes (the figures then describe no commit). */
function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { cwd: repo, encoding: 'utf8' }).trim();
    return dirty ? `${head} (src/ has uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

/** The environment of a run of `script` that started at `started` (performance.now()) with load `loadBefore`. */
export function describeEnvironment(script: string, started: number, loadBefore: number): Environment {
  const cpu = cpus()[0];
  return {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpu?.model.trim() ?? 'unknown CPU',
    nproc: cpus().length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    commit: gitCommit(),
    loadBefore,
    loadAfter: loadavg()[0] ?? 0,
    totalSeconds: (performance.now() - started) / 1000,
    command: `node ${process.execArgv.join(' ')} ${script} ${process.argv.slice(2).join(' ')}`.replace(/\s+$/, ''),
  };
}
