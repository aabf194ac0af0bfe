import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = join(repo, 'samples/corpus');
const QUESTION = 'What is the termination fee of CT-2024-0193?';

let dir: string;
let db: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-ask-stream-'));
  db = join(dir, 'store.db');
  expect((await runCli(['--db', db, 'users', 'add', 'alice', '--groups', 'legal'])).code).toBe(0);
  const ingest = await runCli(['--db', db, 'ingest', corpus]);
  expect(ingest.code, ingest.stderr).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI with one log of both streams, in the order they were written. */
async function interleaved(args: string[], isTty: boolean) {
  const log: { stream: 'out' | 'err'; text: string }[] = [];
  const io: CliIo = {
    out: (text) => void log.push({ stream: 'out', text }),
    err: (text) => void log.push({ stream: 'err', text }),
    isTty,
  };
  const code = await main(['--db', db, ...args], io);
  const text = (stream: 'out' | 'err') =>
    log
      .filter((entry) => entry.stream === stream)
      .map((entry) => entry.text)
      .join('');
  return { code, log, stdout: text('out'), stderr: text('err') };
}

const stepNodes = (stderr: string) => [...stderr.matchAll(/^· (\w+) \(/gm)].map((match) => match[1]);

describe('evident ask streams the run', () => {
  for (const isTty of [false, true]) {
    it(`prints each step to stderr as it completes, then the answer on stdout (${isTty ? 'terminal' : 'pipe'})`, async () => {
      const run = await interleaved(['ask', QUESTION, '--as', 'alice'], isTty);
      expect(run.code, run.stderr).toBe(0);
      expect(stepNodes(run.stderr)).toEqual([
        'load_memory',
        'rewrite',
        'decompose',
        'route_question',
        'retrieve',
        'merge_rerank',
        'check_answerability',
        'generate',
        'citation_check',
        'evidence_gate',
        'finalize',
      ]);
      expect(run.stderr).toMatch(
        /^ {4}bm25 "What is the termination fee of CT-2024-0193\?": contracts\/ct-2024-0193\.md#\d+/m,
      );
      expect(run.stderr).toMatch(/^ {4}evidence: contracts\/ct-2024-0193\.md#\d+ \(0\.\d+\)/m);
      expect(run.stderr).toMatch(/^ {4}verdict: answerable$/m);
      // Every step was written before the answer, one write per step.
      const firstOut = run.log.findIndex((entry) => entry.stream === 'out');
      expect(run.log.slice(0, firstOut).filter((entry) => entry.stream === 'err')).toHaveLength(11);
      expect(run.stdout).toMatch(/\$48,000\.? \[1\]/);
      expect(run.stdout).not.toMatch(/^· /m);
    });
  }

  it('keeps stdout pure JSON with --json, the steps on stderr', async () => {
    const run = await interleaved(['ask', QUESTION, '--as', 'alice', '--json'], false);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { steps: { node: string }[] };
    expect(stepNodes(run.stderr)).toEqual(result.steps.map((step) => step.node));
  });

  it('shows the table_query tool call as its step completes', async () => {
    const run = await interleaved(
      ['ask', 'What is the total order_total_usd of shipped orders?', '--as', 'alice'],
      false,
    );
    expect(run.code, run.stderr).toBe(0);
    // The step's detail lines (the cited rows' evidence) come first, then the tool call.
    expect(run.stderr).toMatch(
      /^· table_query .*\n(?: {4}.*\n)* {4}tool table_query ok \([\d.]+ ms\): SELECT SUM\("order_total_usd"\)/m,
    );
  });
});
