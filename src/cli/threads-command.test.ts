import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = join(repo, 'samples/corpus');
const bin = join(repo, 'bin/evident.js');

let dir: string;
let db: string;
const cli = (...args: string[]) => runCli(['--db', db, ...args]);
const cliJson = async <T>(...args: string[]): Promise<T> => {
  const run = await cli(...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
};

interface RunRow {
  run_id: string;
  status: string;
  question: string;
  started_at: string;
  finished_at?: string;
  duration_ms?: number;
}
interface CheckpointRow {
  checkpoint_id: string;
  parent_id: string | null;
  node: string;
  next: string[];
  run_id: string;
  question: string;
}
interface AskResult {
  thread_id: string;
  run_id: string;
  status: string;
  answer: string;
  standalone_question: string;
}

/** The real bin in its own process, questions on stdin, then end of input. */
function chatProcess(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, '--db', db, 'chat', ...args], {
      cwd: repo,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

let aliceThread: string;
let firstRun: AskResult;
let secondRun: AskResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-threads-'));
  db = join(dir, 'store.db');
  expect((await cli('users', 'add', 'alice', '--groups', 'legal')).code).toBe(0);
  expect((await cli('users', 'add', 'bob', '--groups', 'engineering')).code).toBe(0);
  const ingest = await cli('ingest', corpus);
  expect(ingest.code, ingest.stderr).toBe(0);
  firstRun = await cliJson<AskResult>('ask', 'What is the pricing of CT-2024-0193?', '--as', 'alice');
  aliceThread = firstRun.thread_id;
  secondRun = await cliJson<AskResult>(
    'ask',
    'And what is its termination fee?',
    '--as',
    'alice',
    '--thread',
    aliceThread,
  );
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evident runs and threads', () => {
  it("lists a thread's runs with status and timings, and the user's threads", async () => {
    const runs = await cliJson<RunRow[]>('runs', aliceThread, '--as', 'alice');
    expect(runs.map((run) => [run.run_id, run.status, run.question])).toEqual([
      [firstRun.run_id, 'answered', 'What is the pricing of CT-2024-0193?'],
      [secondRun.run_id, 'answered', 'And what is its termination fee?'],
    ]);
    for (const run of runs) {
      expect(run.duration_ms).toBeGreaterThan(0);
      expect(Date.parse(run.finished_at ?? '') - Date.parse(run.started_at)).toBe(run.duration_ms);
    }
    const threads = await cliJson<{ thread_id: string; run_count: number; last_question: string }[]>(
      'threads',
      '--as',
      'alice',
    );
    expect(threads.find((thread) => thread.thread_id === aliceThread)).toMatchObject({
      run_count: 2,
      last_question: 'And what is its termination fee?',
    });

    const table = await cli('runs', aliceThread, '--as', 'alice');
    expect(table.stdout).toMatch(/^run\s+status\s+started\s+duration\s+question$/m);
    expect(table.stdout).toMatch(
      new RegExp(
        `^${secondRun.run_id}\\s+answered\\s+\\S+\\s+\\d+\\.\\d\\ds\\s+And what is its termination fee\\?$`,
        'm',
      ),
    );
  });

  it("never shows alice's threads, runs or checkpoints to bob", async () => {
    const bobs = await cliJson<AskResult>('ask', 'What is the pricing of CT-2024-0193?', '--as', 'bob');
    const threads = await cliJson<{ thread_id: string }[]>('threads', '--as', 'bob');
    expect(threads.map((thread) => thread.thread_id)).toEqual([bobs.thread_id]);
    const forbidden = `error: No thread named "${aliceThread}". Start a new thread, or continue one of your own.\n`;
    for (const command of ['runs', 'checkpoints']) {
      const run = await cli(command, aliceThread, '--as', 'bob');
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(forbidden);
      expect(run.stdout).toBe('');
    }
    const checkpoints = await cliJson<CheckpointRow[]>('checkpoints', aliceThread, '--as', 'alice');
    const fork = await cli(
      'fork',
      aliceThread,
      checkpoints[0]?.checkpoint_id ?? '',
      'What did alice ask?',
      '--as',
      'bob',
    );
    expect(fork.stderr).toBe(forbidden);
  });
});

describe('evident checkpoints and fork', () => {
  it('lists checkpoints and forks a new run from the end of the first run, keeping the original branch', async () => {
    const before = await cliJson<CheckpointRow[]>('checkpoints', aliceThread, '--as', 'alice');
    const runEnds = before.filter((checkpoint) => checkpoint.next.length === 0);
    expect(runEnds.map((checkpoint) => [checkpoint.run_id, checkpoint.node])).toEqual([
      [firstRun.run_id, 'finalize'],
      [secondRun.run_id, 'finalize'],
    ]);
    expect(before.filter((checkpoint) => checkpoint.node === 'input')).toHaveLength(2);
    expect(before.map((checkpoint) => checkpoint.node)).toEqual(
      expect.arrayContaining(['rewrite', 'retrieve', 'check_answerability', 'generate']),
    );
    const table = await cli('checkpoints', aliceThread, '--as', 'alice');
    expect(table.stdout).toMatch(/^checkpoint\s+step\s+node\s+next\s+created\s+question$/m);

    const endOfFirst = runEnds[0]?.checkpoint_id ?? '';
    const forked = await cliJson<AskResult & { forked_from: string }>(
      'fork',
      aliceThread,
      endOfFirst,
      'And what is its liability cap?',
      '--as',
      'alice',
    );
    expect(forked).toMatchObject({ thread_id: aliceThread, status: 'answered', forked_from: endOfFirst });
    expect(forked.run_id).not.toBe(secondRun.run_id);
    expect(forked.standalone_question).toMatch(/liability cap of CT-2024-0193/);
    expect(forked.answer).toContain('$500K');

    const after = await cliJson<CheckpointRow[]>('checkpoints', aliceThread, '--as', 'alice');
    // The original history stays: every earlier checkpoint is still listed, and the fork branches off the chosen one.
    expect(after.map((c) => c.checkpoint_id)).toEqual(expect.arrayContaining(before.map((c) => c.checkpoint_id)));
    const forkInput = after.find((c) => c.run_id === forked.run_id && c.node === 'input');
    expect(forkInput?.parent_id).toBe(endOfFirst);
    expect(forkInput?.question).toBe('And what is its liability cap?');
    const branches = after.filter((c) => c.parent_id === endOfFirst).map((c) => c.run_id);
    expect(branches.sort()).toEqual([secondRun.run_id, forked.run_id].sort());
    const runs = await cliJson<RunRow[]>('runs', aliceThread, '--as', 'alice');
    expect(runs.map((run) => run.run_id)).toEqual([firstRun.run_id, secondRun.run_id, forked.run_id]);

    // The thread goes on from its newest checkpoint, the fork's end.
    const next = await cliJson<AskResult>('ask', 'And what is its pricing?', '--as', 'alice', '--thread', aliceThread);
    expect(next.standalone_question).toMatch(/CT-2024-0193/);

    const midRun = after.find((c) => c.run_id === firstRun.run_id && c.node === 'rewrite')?.checkpoint_id ?? '';
    expect((await cli('fork', aliceThread, midRun, 'Another question?', '--as', 'alice')).stderr).toMatch(
      /in the middle of a run/,
    );
    // Without a question, a mid-run checkpoint is replayed from there as a new run.
    const replay = await cliJson<AskResult>('fork', aliceThread, midRun, '--as', 'alice');
    expect(replay).toMatchObject({ status: 'answered', standalone_question: 'What is the pricing of CT-2024-0193?' });
    expect(replay.answer).toContain('$12,500');
    const replayed = (await cliJson<RunRow[]>('runs', aliceThread, '--as', 'alice')).at(-1);
    expect(replayed).toMatchObject({
      run_id: replay.run_id,
      status: 'answered',
      question: 'What is the pricing of CT-2024-0193?',
    });
    expect((await cli('fork', aliceThread, endOfFirst, '--as', 'alice')).stderr).toMatch(
      /end of a run; there is nothing to replay/,
    );
    expect((await cli('fork', aliceThread, 'no-such-checkpoint', 'x', '--as', 'alice')).stderr).toMatch(
      /No checkpoint named "no-such-checkpoint"/,
    );
  }, 60_000);
});

describe.each(['react', 'controllable'])('evident checkpoints, fork and approve with --agent %s', (agent) => {
  it("lists the thread's checkpoints, forks from the end of a run, replays from mid-run and decides on a memory", async () => {
    const asked = await cliJson<AskResult>(
      'ask',
      'What is the termination fee of CT-2024-0193?',
      '--agent',
      agent,
      '--as',
      'alice',
    );
    expect(asked.status).toBe('answered');
    const checkpoints = await cliJson<CheckpointRow[]>('checkpoints', asked.thread_id, '--as', 'alice');
    const end = checkpoints.find((c) => c.run_id === asked.run_id && c.next.length === 0);
    const mid = checkpoints.find((c) => c.run_id === asked.run_id && c.next.length > 0 && c.node !== 'input');
    expect(end && mid).toBeTruthy();
    expect((await cli('checkpoints', asked.thread_id, '--as', 'bob')).code).toBe(1);

    // The thread is bound to its agent: fork and approve find it from the thread, no --agent needed.
    const forked = await cliJson<AskResult & { forked_from: string }>(
      'fork',
      asked.thread_id,
      end?.checkpoint_id ?? '',
      'What is the pricing of CT-2024-0193?',
      '--as',
      'alice',
    );
    expect(forked).toMatchObject({ thread_id: asked.thread_id, forked_from: end?.checkpoint_id });
    expect(forked.answer).toContain('$12,500');
    const branched = await cliJson<CheckpointRow[]>('checkpoints', asked.thread_id, '--as', 'alice');
    expect(branched.find((c) => c.run_id === forked.run_id && c.node === 'input')?.parent_id).toBe(end?.checkpoint_id);
    const replay = await cliJson<AskResult>('fork', asked.thread_id, mid?.checkpoint_id ?? '', '--as', 'alice');
    expect(replay).toMatchObject({ status: 'answered', answer: asked.answer });
    const runs = await cliJson<RunRow[]>('runs', asked.thread_id, '--as', 'alice');
    expect(runs.map((run) => run.run_id)).toEqual([asked.run_id, forked.run_id, replay.run_id]);

    const remember = await cliJson<AskResult & { pending_action?: { tool: string } }>(
      'ask',
      `Remember that my ${agent} badge is 77`,
      '--agent',
      agent,
      '--as',
      'alice',
    );
    expect(remember).toMatchObject({ status: 'interrupted', pending_action: { tool: 'save_memory' } });
    expect((await cli('approve', remember.thread_id, '--as', 'bob')).code).toBe(1);
    const approved = await cliJson<AskResult>('approve', remember.thread_id, '--as', 'alice');
    expect(approved.status).toBe('answered');
    const memories = await cliJson<{ text: string }[]>('memories', 'list', '--as', 'alice');
    expect(memories.filter((memory) => memory.text === `My ${agent} badge is 77`)).toHaveLength(1);
  }, 60_000);
});

describe('evident chat', () => {
  it('answers questions read from a pipe on one thread, rewriting the follow-up', async () => {
    const chat = await chatProcess(
      ['--as', 'alice'],
      'What is the termination fee of CT-2024-0193?\n\nAnd what is its liability cap?\n',
    );
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toMatch(/\$48,000\.? \[1\]/);
    expect(chat.stdout).toMatch(/\$500K.*\[1\]/);
    expect(chat.stdout).toMatch(/^\[1\] contracts\/ct-2024-0193\.md#\d+: /m);
    const threads = [...chat.stdout.matchAll(/thread ([0-9a-f-]{36}) · run/g)].map((match) => match[1]);
    expect(threads).toHaveLength(2);
    expect(threads[1]).toBe(threads[0]);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [bin, '--db', db, 'runs', threads[0] ?? '', '--as', 'alice', '--json'],
      { cwd: repo },
    );
    expect((JSON.parse(stdout) as RunRow[]).map((run) => [run.status, run.question])).toEqual([
      ['answered', 'What is the termination fee of CT-2024-0193?'],
      ['answered', 'And what is its liability cap?'],
    ]);
  }, 60_000);
});
