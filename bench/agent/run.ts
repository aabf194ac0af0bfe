/**
 * Agent overhead benchmark: what the graph runtime and the checkpoint writes add to the offline `rag` agent's node
 * work on the SQLite store. See bench/README.md.
 *
 *   npm run bench:agent -- [--runs 50] [--warmup 5] [--json out.json] [--corpus samples/corpus] [--keep]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createEvident } from '../../src/evident.ts';
import { benchConfig } from '../retrieval/measure-size.ts';
import { summarize } from '../retrieval/stats.ts';
import { measureAgent, replayCheckpointWrites } from './measure.ts';
import {
  formatAgentReport,
  nodeRows,
  scenarioRows,
  variantRows,
  type AgentBenchReport,
  type CheckpointSizes,
} from './report.ts';
import { describeEnvironment } from '../environment.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../..');

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '5' },
    json: { type: 'string' },
    corpus: { type: 'string', default: join(repo, 'samples/corpus') },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});

const positiveInt = (name: string, value: string, allowZero = false): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < (allowZero ? 0 : 1))
    throw new Error(
      `--${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${JSON.stringify(value)}`,
    );
  return parsed;
};

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** What a thread's checkpoints weigh in the store: the size the SqliteSaver serialises on every write. */
function checkpointSizes(db: string): CheckpointSizes | undefined {
  const conn = new Database(db, { readonly: true });
  try {
    const sizes = (sql: string) => (conn.prepare(sql).all() as { bytes: number }[]).map((row) => row.bytes);
    const checkpoints = sizes('SELECT length(checkpoint) + length(metadata) AS bytes FROM checkpoints');
    const writes = sizes('SELECT length(value) AS bytes FROM writes');
    const threads = (conn.prepare('SELECT count(DISTINCT thread_id) AS n FROM checkpoints').get() as { n: number }).n;
    return {
      threads,
      checkpoints: checkpoints.length,
      checkpointBytes: summarize(checkpoints),
      writes: writes.length,
      writeBytes: summarize(writes),
    };
  } catch (error) {
    log(`checkpoint sizes unavailable: ${(error as Error).message}`);
    return undefined;
  } finally {
    conn.close();
  }
}

async function main(): Promise<void> {
  const runs = positiveInt('runs', flags.runs);
  const warmup = positiveInt('warmup', flags.warmup, true);
  const corpus = resolve(flags.corpus);
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const workDir = mkdtempSync(join(tmpdir(), 'evident-bench-agent-'));
  const db = join(workDir, 'store.db');
  try {
    const evident = await createEvident(benchConfig(workDir, db));
    let report: AgentBenchReport;
    try {
      const ingest = await evident.ingestor.ingest([corpus]);
      if (ingest.failed > 0) throw new Error(`${ingest.failed} files of ${corpus} failed to ingest`);
      log(`ingested ${ingest.added} documents, ${ingest.chunks} chunks into ${db}`);
      const result = await measureAgent(evident, { runs, warmup, log });
      const replay = await replayCheckpointWrites(db, runs);
      report = {
        environment: describeEnvironment('bench/agent/run.ts', started, loadBefore),
        settings: {
          runs,
          warmup,
          corpus: corpus.startsWith(repo) ? corpus.slice(repo.length + 1) : corpus,
          chunks: ingest.chunks,
          documents: ingest.added,
        },
        rows: variantRows(result.samples),
        scenarios: scenarioRows(result.samples),
        nodes: nodeRows(result.samples),
        checkpointSizes: checkpointSizes(db),
        replay,
        paths: result.paths,
        errors: result.errors,
      };
    } finally {
      await evident.close();
    }
    process.stdout.write(`${formatAgentReport(report)}\n`);
    if (flags.json) {
      writeFileSync(resolve(flags.json), `${JSON.stringify(report, null, 2)}\n`);
      log(`wrote ${resolve(flags.json)}`);
    }
    if (report.errors.length > 0) process.exitCode = 1;
  } finally {
    if (flags.keep) log(`kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
