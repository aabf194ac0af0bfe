import { execFile } from 'node:child_process';
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
/** A separate Node process: nothing in memory is shared with the previous run. */
const processCli = async (...args: string[]) => {
  const { stdout } = await promisify(execFile)(process.execPath, [bin, '--db', db, ...args], { cwd: repo });
  return stdout;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-ask-'));
  db = join(dir, 'store.db');
  expect((await cli('users', 'add', 'alice', '--groups', 'legal')).code).toBe(0);
  expect((await cli('users', 'add', 'bob', '--groups', 'engineering')).code).toBe(0);
  const run = await cli('ingest', corpus);
  expect(run.code, run.stderr).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evident ask', () => {
  it('bounds the question and the query as HTTP does, naming the setting', async () => {
    const asked = await cli('ask', `What is ${'very '.repeat(1_000)}important?`, '--as', 'alice');
    expect(asked.code).not.toBe(0);
    expect(asked.stderr).toMatch(/input_too_large|limits\.maxQuestionChars/);
    const searched = await cli('search', 'fee '.repeat(2_000));
    expect(searched.code).not.toBe(0);
    expect(searched.stderr).toMatch(/limits\.maxQuery/);
  });

  it('prints the answer with numbered citations', async () => {
    const run = await cli('ask', 'What is the termination fee of CT-2024-0193?', '--as', 'alice');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\$48,000\.? \[1\]/);
    expect(run.stdout).toMatch(/^\[1\] contracts\/ct-2024-0193\.md#\d+: ".*\$48,000/m);
    expect(run.stdout).toMatch(/thread [0-9a-f-]{36} · run [0-9a-f-]{36} · offline/);
  });

  it('prints the answer contract and the run trace with --json', async () => {
    const run = await cli('ask', 'What is the total order_total_usd of shipped orders?', '--as', 'alice', '--json');
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown> & {
      tool_calls: { name: string }[];
      steps: { node: string }[];
    };
    expect(result).toMatchObject({
      answerable: true,
      status: 'answered',
      mode: 'offline',
      standalone_question: 'What is the total order_total_usd of shipped orders?',
    });
    expect(result.answer).toEqual(expect.stringContaining('12786.1'));
    expect(result.tool_calls.map((call) => call.name)).toEqual(['table_query']);
    expect(result.steps.map((step) => step.node)).toContain('table_query');
    expect(Object.keys(result)).toEqual(
      expect.arrayContaining([
        'thread_id',
        'run_id',
        'sub_questions',
        'evidence_ids',
        'citations',
        'missing_information',
        'confidence',
      ]),
    );
  });

  it('seeds a thread with --history and rewrites the follow-up', async () => {
    const history = JSON.stringify([{ role: 'user', content: 'Tell me about CT-2024-0193.' }]);
    const run = await cli('ask', 'And what is its termination fee?', '--as', 'alice', '--history', history, '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      standalone_question: 'What is the termination fee of CT-2024-0193?',
    });
    expect((await cli('ask', 'x', '--history', '{"role":1}')).stderr).toMatch(/--history must be an array/);
  });

  it('resumes a thread in a new process with --thread', async () => {
    const first = JSON.parse(
      await processCli('ask', 'What is the pricing of CT-2024-0193?', '--as', 'alice', '--json'),
    ) as { thread_id: string };
    const second = JSON.parse(
      await processCli(
        'ask',
        'And what is its termination fee?',
        '--as',
        'alice',
        '--thread',
        first.thread_id,
        '--json',
      ),
    ) as {
      thread_id: string;
      standalone_question: string;
      answer: string;
    };
    expect(second.thread_id).toBe(first.thread_id);
    expect(second.standalone_question).toBe('What is the termination fee of CT-2024-0193?');
    expect(second.answer).toContain('$48,000');
  }, 60_000);
});

describe('evident graph', () => {
  it("refuses to continue another user's thread without revealing it", async () => {
    const first = await cli('ask', 'What is the termination fee of CT-2024-0193?', '--as', 'alice', '--json');
    const { thread_id: threadId } = JSON.parse(first.stdout) as { thread_id: string };
    const intruder = await cli('ask', 'What did we discuss?', '--as', 'bob', '--thread', threadId);
    expect(intruder.code).toBe(1);
    // What a missing thread gets: nothing says that the thread exists, or whose it is.
    expect(intruder.stderr).toBe(
      `error: No thread named "${threadId}". Start a new thread, or continue one of your own.\n`,
    );
    expect(intruder.stdout).toBe('');
    const owner = await cli('ask', 'And what is its liability cap?', '--as', 'alice', '--thread', threadId, '--json');
    expect(owner.code, owner.stderr).toBe(0);
  });

  it('keeps the threads of ad-hoc --groups principals apart', async () => {
    const legal = await cli('ask', 'What is the termination fee of CT-2024-0193?', '--groups', 'legal', '--json');
    const { thread_id: threadId } = JSON.parse(legal.stdout) as { thread_id: string };
    const outsider = await cli(
      'ask',
      'And what is its liability cap?',
      '--groups',
      'engineering',
      '--thread',
      threadId,
    );
    expect(outsider.code).toBe(1);
    expect(outsider.stderr).toMatch(/^error: No thread named ".*"\. Start a new thread/);
  });

  it('prints the rag graph as Mermaid, with its conditional edges', async () => {
    const run = await cli('graph', 'rag', '--mermaid');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^(%%\{init|graph TD|flowchart)/);
    for (const node of [
      'load_memory',
      'rewrite',
      'route_question',
      'table_query',
      'check_answerability',
      'citation_check',
      'refuse',
      'evidence_gate',
      'finalize',
    ]) {
      expect(run.stdout).toContain(node);
    }
    expect(run.stdout).toMatch(/citation_check -. &nbsp;retry&nbsp; .-> generate/);
    expect((await cli('graph', 'nope')).stderr).toMatch(/Unknown agent "nope"\. Agents: rag, react\b/);
  });
});
