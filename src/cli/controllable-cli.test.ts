import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';

let sample: SampleCorpusStore;
const cli = (...args: string[]) => runCli(['--db', sample.db, ...args]);

beforeAll(async () => {
  sample = await openSampleCorpusStore([
    { name: 'alice', groups: ['legal'] },
    { name: 'bob', groups: ['engineering'] },
  ]);
});

afterAll(async () => {
  await sample?.close();
});

describe('evident ask --agent controllable', () => {
  it('answers with citations, prints the plan-and-execute steps, and binds the thread to controllable', async () => {
    const run = await cli(
      'ask',
      'What is the termination fee of CT-2024-0193?',
      '--as',
      'alice',
      '--agent',
      'controllable',
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      answer: string;
      citations: { chunk_id: string }[];
      thread_id: string;
      mode: string;
    };
    expect(result.answer).toContain('$48,000');
    expect(result.citations[0]?.chunk_id).toBe('contracts/ct-2024-0193.md#0');
    expect(result.mode).toBe('offline');
    for (const node of [
      'anonymize',
      'planner',
      'deanonymize_plan',
      'task_handler',
      'retrieve_chunks',
      'replan',
      'citation_check',
    ])
      expect(run.stderr).toContain(`· ${node} (`);
    const rag = await cli('ask', 'And its notice period?', '--as', 'alice', '--thread', result.thread_id);
    expect(rag.code).not.toBe(0);
    expect(rag.stderr).toMatch(/belongs to the controllable agent/);
  });

  it('refuses bob, and nothing of the contract reaches his output', async () => {
    const run = await cli('ask', 'Summarize CT-2024-0193', '--as', 'bob', '--agent', 'controllable', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ answerable: false, status: 'refused' });
    for (const secret of ['Northwind', '48,000', 'contracts/ct-2024-0193.md'])
      expect(run.stdout + run.stderr).not.toContain(secret);
  });
});

describe('evident graph controllable', () => {
  it('prints the plan-and-execute graph as Mermaid, with every loop and its exits', async () => {
    const run = await cli('graph', 'controllable', '--mermaid');
    expect(run.code, run.stderr).toBe(0);
    for (const node of [
      'anonymize',
      'planner',
      'deanonymize_plan',
      'task_handler',
      'retrieve_chunks',
      'retrieve_summaries',
      'retrieve_quotes',
      'keep_relevant',
      'relevance_check',
      'rewrite_query',
      'answer_from_context',
      'groundedness_check',
      'replan',
      'final_answer',
      'citation_check',
      'evidence_gate',
      'finalize',
    ]) {
      expect(run.stdout).toContain(`${node}(${node})`);
    }
    expect(run.stdout).toMatch(/relevance_check -\. &nbsp;rewrite&nbsp; \.-> rewrite_query/);
    expect(run.stdout).toMatch(/groundedness_check -\. &nbsp;retry&nbsp; \.-> answer_from_context/);
    expect(run.stdout).toMatch(/replan -\. &nbsp;next&nbsp; \.-> task_handler/);
    expect(run.stdout).toMatch(/citation_check -\. &nbsp;retry&nbsp; \.-> final_answer/);
  });
});
