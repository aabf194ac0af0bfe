import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';

let sample: SampleCorpusStore;
const cli = (...args: string[]) => runCli(['--db', sample.db, ...args]);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The real bin in its own process, questions on stdin, then end of input. */
function chatProcess(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [join(repo, 'bin/evident.js'), '--db', sample.db, 'chat', ...args], {
      cwd: repo,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

beforeAll(async () => {
  sample = await openSampleCorpusStore([
    { name: 'alice', groups: ['legal'] },
    { name: 'bob', groups: ['engineering'] },
  ]);
});

afterAll(async () => {
  await sample?.close();
});

describe('evident ask --agent react', () => {
  it('prints the answer with numbered citations, and the loop steps on stderr as they come', async () => {
    const run = await cli('ask', 'What is the termination fee of CT-2024-0193?', '--as', 'alice', '--agent', 'react');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\$48,000\.? \[1\]/);
    expect(run.stdout).toMatch(/^\[1\] contracts\/ct-2024-0193\.md#\d+: ".*\$48,000/m);
    expect(run.stdout).toMatch(/thread [0-9a-f-]{36} · run [0-9a-f-]{36} · offline/);
    expect(run.stderr).toMatch(/^· reason \([\d.]+ ms\): iteration 1: .*→ knowledge_base/m);
    expect(run.stderr).toMatch(/^· act .*knowledge_base: \d+ queries → \d+ chunks/m);
    expect(run.stderr).toMatch(
      /^ {4}fused "What is the termination fee of CT-2024-0193\?": contracts\/ct-2024-0193\.md#0/m,
    );
    expect(run.stderr).toMatch(/^ {4}tool knowledge_base ok/m);
    expect(run.stderr).toMatch(/^· citation_check/m);
  });

  it('prints the run as JSON, with the tool calls and the thread it can continue', async () => {
    const run = await cli(
      'ask',
      'What is the termination fee of CT-2024-0193?',
      '--as',
      'bob',
      '--agent',
      'react',
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      status: string;
      mode: string;
      answer: string;
      evidence_ids: string[];
      tool_calls: { name: string }[];
      thread_id: string;
    };
    expect(result).toMatchObject({ status: 'refused', mode: 'offline', answerable: false });
    expect(result.evidence_ids.some((id) => id.startsWith('contracts/ct-2024-0193.md'))).toBe(false);
    expect(result.tool_calls.map((call) => call.name)).toContain('knowledge_base');
    // The thread is bound to react: rag may not continue it.
    const rag = await cli('ask', 'And its liability?', '--as', 'bob', '--thread', result.thread_id);
    expect(rag.code).toBe(1);
    expect(rag.stderr).toMatch(/belongs to the react agent/);
  });

  it('waits for approval of save_memory, and evident approve finishes the react run', async () => {
    const ask = await cli(
      'ask',
      'Remember that my badge number is 4471',
      '--as',
      'alice',
      '--agent',
      'react',
      '--json',
    );
    expect(ask.code, ask.stderr).toBe(0);
    const waiting = JSON.parse(ask.stdout) as {
      status: string;
      thread_id: string;
      pending_action: { tool: string; args: { text: string } };
    };
    expect(waiting).toMatchObject({
      status: 'interrupted',
      pending_action: { tool: 'save_memory', args: { text: 'My badge number is 4471' } },
    });
    const approve = await cli('approve', waiting.thread_id, '--as', 'alice');
    expect(approve.code, approve.stderr).toBe(0);
    expect(approve.stdout).toContain('Saved to your memories: My badge number is 4471');
    const memories = await cli('memories', 'list', '--as', 'alice');
    expect(memories.stdout).toContain('My badge number is 4471');
  });

  it('names the agents when the agent is unknown', async () => {
    const run = await cli('ask', 'What is the termination fee of CT-2024-0193?', '--agent', 'nope');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: Unknown agent "nope"\. Agents: rag, react\b/);
    expect(run.stdout).toBe('');
  });
});

describe('evident chat --agent react', () => {
  it('keeps one thread for the conversation, so a follow-up is understood', async () => {
    const run = await chatProcess(
      ['--agent', 'react', '--as', 'alice'],
      'What is the pricing of CT-2024-0193?\nAnd what is its termination fee?\n',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('$12,500');
    expect(run.stdout).toContain('$48,000');
    const threads = [...run.stdout.matchAll(/thread ([0-9a-f-]{36}) · run/g)].map((match) => match[1]);
    expect(threads).toHaveLength(2);
    expect(threads[1]).toBe(threads[0]);
    expect(run.stderr).toMatch(/· rewrite .*rewritten: What is the termination fee of CT-2024-0193\?/);
  });
});

describe('evident graph react', () => {
  it('prints the ReAct loop as Mermaid', async () => {
    const run = await cli('graph', 'react', '--mermaid');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^(%%\{init|graph TD|flowchart)/);
    for (const node of [
      'load_memory',
      'rewrite',
      'reason',
      'act',
      'save_memory',
      'citation_check',
      'stop',
      'evidence_gate',
      'finalize',
    ])
      expect(run.stdout).toContain(`${node}(${node})`);
    expect(run.stdout).toMatch(/reason -\. &nbsp;check&nbsp; \.-> citation_check/);
    expect(run.stdout).toMatch(/act -\.-> reason/);
  });
});
