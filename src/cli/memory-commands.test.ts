import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(repo, 'bin/evident.js');

let dir: string;
let db: string;
const cli = (...args: string[]) => runCli(['--db', db, ...args]);
/** A separate Node process: the approval resumes from the checkpoint on disk. */
const processCli = async (...args: string[]) =>
  (await promisify(execFile)(process.execPath, [bin, '--db', db, ...args], { cwd: repo })).stdout;

interface MemoryJson {
  id: string;
  user: string;
  text: string;
}

const memoriesOf = async (user: string) =>
  JSON.parse((await cli('memories', 'list', '--as', user, '--json')).stdout) as MemoryJson[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-memories-'));
  db = join(dir, 'store.db');
  expect((await cli('users', 'add', 'alice', '--groups', 'legal')).code).toBe(0);
  expect((await cli('users', 'add', 'bob', '--groups', 'legal')).code).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evident ask → approve → memories', () => {
  it('waits for approval, lets only the owner approve, and saves once', async () => {
    const asked = await cli('ask', 'Remember that I prefer invoices in EUR', '--as', 'alice');
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('waiting for approval: save_memory {"text":"I prefer invoices in EUR"}');
    const threadId = /thread ([0-9a-f-]{36})/.exec(asked.stdout)?.[1] ?? '';
    expect(asked.stdout).toContain(`evident approve ${threadId}`);

    const intruder = await cli('approve', threadId, '--as', 'bob');
    expect(intruder.code).toBe(1);
    expect(intruder.stderr).toBe(
      `error: No thread named "${threadId}". Start a new thread, or continue one of your own.\n`,
    );
    expect(intruder.stderr).not.toContain('EUR');
    expect(intruder.stdout).toBe('');

    const approved = JSON.parse(await processCli('approve', threadId, '--as', 'alice', '--json')) as {
      status: string;
      tool_calls: { name: string; ok: boolean }[];
    };
    expect(approved.status).toBe('answered');
    expect(approved.tool_calls).toMatchObject([{ name: 'save_memory', ok: true }]);
    const again = await cli('approve', threadId, '--as', 'alice');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/has no action waiting for a decision/);
    expect((await memoriesOf('alice')).map((memory) => memory.text)).toEqual(['I prefer invoices in EUR']);
    expect(await memoriesOf('bob')).toEqual([]);
  }, 60_000);

  it('prints status interrupted and the pending action with --json, and saves an edit; a reject saves nothing', async () => {
    const asked = await cli('ask', 'Note that my desk is 4B', '--as', 'bob', '--json');
    expect(asked.code, asked.stderr).toBe(0);
    const run = JSON.parse(asked.stdout) as {
      status: string;
      thread_id: string;
      run_id: string;
      pending_action: unknown;
      answer: unknown;
    };
    expect(run).toMatchObject({
      status: 'interrupted',
      answer: null,
      pending_action: {
        tool: 'save_memory',
        args: { text: 'My desk is 4B' },
        approval_id: `${run.run_id}:save_memory-1`,
      },
    });
    expect((await cli('approve', run.thread_id, '--as', 'bob', '--edit', 'not json')).stderr).toMatch(
      /--edit is not valid JSON/,
    );
    const edited = await cli('approve', run.thread_id, '--as', 'bob', '--edit', '{"text": "My desk is 4C"}');
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.stdout).toContain('Saved to your memories: My desk is 4C');

    const other = JSON.parse((await cli('ask', 'Remember that I like tea', '--as', 'bob', '--json')).stdout) as {
      thread_id: string;
    };
    const rejected = await cli('approve', other.thread_id, '--as', 'bob', '--reject');
    expect(rejected.stdout).toContain('Nothing was saved');
    expect((await memoriesOf('bob')).map((memory) => memory.text)).toEqual(['My desk is 4C']);
  });

  it("lists and removes only the user's own memories", async () => {
    const [alices] = await memoriesOf('alice');
    expect(alices).toBeDefined();
    const listed = await cli('memories', 'list', '--as', 'alice');
    expect(listed.stdout).toContain('I prefer invoices in EUR');
    expect(listed.stdout).not.toContain('desk');
    const bobRm = await cli('memories', 'rm', alices?.id ?? '', '--as', 'bob');
    expect(bobRm.code).toBe(1);
    expect(bobRm.stderr).toBe(
      `error: No memory named "${alices?.id}". List yours with \`evident memories list --as bob\`.\n`,
    );
    expect(await memoriesOf('alice')).toHaveLength(1);
    expect((await cli('memories', 'rm', alices?.id ?? '', '--as', 'alice')).stdout).toBe(
      `deleted memory ${alices?.id}\n`,
    );
    expect(await memoriesOf('alice')).toEqual([]);
    expect((await cli('memories', 'list', '--as', 'alice')).stdout).toMatch(/^No memories for alice\./);
  });
});
