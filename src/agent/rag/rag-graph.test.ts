import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { REFUSAL_TEXT } from '../../domain/answer.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { RecordingChatModel } from '../../testing/recording-chat-model.ts';
import { oneNeed, routeTo } from '../../testing/rag-model-script.ts';
import { FALLBACK_LABEL, OFFLINE_LABEL } from '../offline-qa/extractive-answer.ts';
import { openAgent, type AgentClient } from '../../testing/agent-client.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const corpus = join(repo, 'samples/corpus');
const CONTRACT_PHRASE = 'Northwind Logistics';

let dir: string;
let db: string;
let evident: Evident;
let agent: AgentClient & { close(): Promise<void> };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-rag-'));
  db = join(dir, 'store.db');
  evident = await createEvident(loadConfig({ flags: { db } }));
  await evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
  await evident.store.upsertUser({ name: 'bob', groups: ['engineering'] });
  expect(await evident.ingestor.ingest([corpus])).toMatchObject({ failed: 0 });
  agent = await openAgent(evident, 'rag');
});

afterAll(async () => {
  await agent?.close();
  await evident?.close();
  await rm(dir, { recursive: true, force: true });
});

const as = (name: string) => evident.principalFor(name);

describe('rag graph, offline', () => {
  it('answers the termination fee of CT-2024-0193 with the right citation', async () => {
    const run = await agent.ask({
      question: 'What is the termination fee of CT-2024-0193?',
      principal: await as('alice'),
    });
    expect(run.status).toBe('answered');
    expect(run.answer?.answerable).toBe(true);
    expect(run.answer?.answer).toContain('$48,000');
    expect(run.answer?.answer).toContain(OFFLINE_LABEL);
    expect(run.answer?.citations[0]).toMatchObject({
      doc_id: 'contracts/ct-2024-0193.md',
      quote: expect.stringContaining('$48,000'),
    });
    expect(run.evidence_ids).toContain(run.answer?.citations[0]?.chunk_id);
    expect(run.steps.map((step) => step.node)).toEqual([
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
    expect(run.steps[1]?.summary).toMatch(/skipped/);
  });

  it('refuses when the topic is present but the answer is not (CT-2023-0077 has fees, no termination fee)', async () => {
    const run = await agent.ask({
      question: 'What is the termination fee of CT-2023-0077?',
      principal: await as('alice'),
    });
    expect(run.status).toBe('refused');
    expect(run.answer?.answerable).toBe(false);
    expect(run.answer?.answer).toContain(REFUSAL_TEXT);
    expect(run.answer?.citations).toEqual([]);
    expect(run.answer?.missing_information).toEqual([
      'the termination fee of CT-2023-0077 (the evidence found mentions CT-2023-0077 but states no termination fee)',
    ]);
    expect(run.steps.map((step) => step.node)).toContain('refuse');
    expect(run.evidence_ids.length).toBeGreaterThan(0); // related evidence was found, and judged insufficient
  });

  it('refuses bob, who may not see CT-2024-0193', async () => {
    const run = await agent.ask({
      question: 'What is the termination fee of CT-2024-0193?',
      principal: await as('bob'),
    });
    expect(run.status).toBe('refused');
    expect(run.answer?.answer).not.toContain('48,000');
    expect(run.evidence_ids.some((id) => id.startsWith('contracts/ct-2024-0193.md'))).toBe(false);
  });

  it('rewrites a follow-up from the history, then answers it', async () => {
    const run = await agent.ask({
      question: 'And what is its termination fee?',
      principal: await as('alice'),
      history: [
        { role: 'user', content: 'What is the pricing of CT-2024-0193?' },
        { role: 'assistant', content: 'A fixed monthly platform fee of $12,500 plus $4.20 per delivered parcel.' },
      ],
    });
    expect(run.standalone_question).toBe('What is the termination fee of CT-2024-0193?');
    expect(run.answer?.answer).toContain('$48,000');
  });

  it('decomposes a question with several needs and retrieves per need', async () => {
    const run = await agent.ask({
      question: 'What are the pricing, term and liability of CT-2024-0193?',
      principal: await as('alice'),
    });
    expect(run.sub_questions).toEqual([
      'What is the pricing of CT-2024-0193?',
      'What is the term of CT-2024-0193?',
      'What is the liability of CT-2024-0193?',
    ]);
    expect(run.answer?.answerable).toBe(true);
    // One value (or sentence) per need, each from this contract: its 36-month term, not another contract's renewal.
    expect(run.answer?.answer).toContain('36 months');
    expect(run.answer?.answer).toContain('$500K');
    expect(run.answer?.answer).not.toContain('no automatic renewal');
  });

  it('sends an aggregation to table_query and records the call', async () => {
    const run = await agent.ask({
      question: 'What is the total order_total_usd of shipped orders?',
      principal: await as('alice'),
    });
    expect(run.answer?.answer).toContain('12786.1');
    expect(run.tool_calls).toHaveLength(1);
    expect(run.tool_calls[0]).toMatchObject({
      name: 'table_query',
      ok: true,
      arguments: { sql: expect.stringMatching(/^SELECT SUM\("order_total_usd"\)/) },
    });
    expect(run.tool_calls[0]?.duration_ms).toBeGreaterThanOrEqual(0);
    expect(run.steps.map((step) => step.node)).not.toContain('retrieve');
  });

  it('keeps the thread history across runs, by thread_id', async () => {
    const first = await agent.ask({ question: 'What is the pricing of CT-2024-0193?', principal: await as('alice') });
    const second = await agent.ask({
      question: 'And what is its termination fee?',
      principal: await as('alice'),
      threadId: first.thread_id,
    });
    expect(second.thread_id).toBe(first.thread_id);
    expect(second.run_id).not.toBe(first.run_id);
    expect(second.standalone_question).toBe('What is the termination fee of CT-2024-0193?');
    expect(second.steps[0]?.summary).toBe('2 earlier turns in the thread');
    // The per-run trace starts afresh on each run of the thread.
    expect(second.steps.filter((step) => step.node === 'load_memory')).toHaveLength(1);
  });
});

describe('rag graph with a recording chat model', () => {
  const withModel = (model: RecordingChatModel) => openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });

  it('never shows bob the contract text he may not see', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve'),
      () => ({
        answerable: false,
        reasons: ['not in the evidence'],
        missing_information: ['the termination fee of CT-2024-0193'],
      }),
    ]);
    const rag = await withModel(model);
    try {
      const run = await rag.ask({
        question: 'What is the termination fee of CT-2024-0193 with Northwind Logistics?',
        principal: await as('bob'),
      });
      expect(run.status).toBe('refused');
      expect(model.calls.length).toBeGreaterThan(0);
      for (const prompt of model.prompts) {
        expect(prompt).not.toContain('$48,000');
        expect(prompt).not.toContain('warehouse and last-mile');
      }
      // alice's prompt, by contrast, carries the contract: the assertion above could fail.
      const aliceModel = new RecordingChatModel([
        oneNeed,
        routeTo('retrieve'),
        { answerable: false, reasons: [], missing_information: ['x'] },
      ]);
      const aliceRun = await (await withModel(aliceModel)).ask({
        question: 'What is the termination fee of CT-2024-0193?',
        principal: await as('alice'),
      });
      expect(aliceRun.status).toBe('refused');
      expect(aliceModel.prompts.join('\n')).toContain('$48,000');
      expect(CONTRACT_PHRASE).toBeTruthy();
    } finally {
      await rag.close();
    }
  });

  it('says what is missing from the model’s reasons when its list repeats the question', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve'),
      {
        answerable: false,
        reasons: ['CT-2023-0077 lists a monthly fee but no termination fee.'],
        missing_information: ['What is the termination fee of CT-2023-0077?'],
      },
    ]);
    const rag = await withModel(model);
    try {
      const run = await rag.ask({
        question: 'What is the termination fee of CT-2023-0077?',
        principal: await as('alice'),
      });
      expect(run.status).toBe('refused');
      expect(run.answer?.missing_information).toEqual([
        'the termination fee of CT-2023-0077 (CT-2023-0077 lists a monthly fee but no termination fee)',
      ]);
      expect(run.answer?.answer).toContain('Missing: the termination fee of CT-2023-0077 (CT-2023-0077 lists');
    } finally {
      await rag.close();
    }
  });

  it('retries an invalid answer with the validation error, then records the typed error and answers from the evidence', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve'),
      { answerable: true, reasons: ['states it'], missing_information: [] },
      { answer: 'The fee is $48,000.', answerable: 'yes' },
      { answer: 'The fee is $48,000.' },
      'no json here',
    ]);
    const rag = await withModel(model);
    try {
      const run = await rag.ask({
        question: 'What is the termination fee of CT-2024-0193?',
        principal: await as('alice'),
      });
      // The one fallback policy of every agent: the step's offline strategy stands in, the error stays in the trace.
      expect(run.status).toBe('answered');
      expect(run.answer?.answer).toContain('$48,000');
      expect(run.answer?.answer).toContain(FALLBACK_LABEL);
      expect(run.answer?.answer).not.toContain(OFFLINE_LABEL);
      expect(run.errors).toEqual([
        { node: 'generate', code: 'structured_output_invalid', message: expect.stringMatching(/after 3 attempts/) },
      ]);
      expect(model.calls).toHaveLength(6);
      expect(model.calls[4]?.prompt).toContain('did not match the required JSON schema "answer"');
      expect(model.remaining).toBe(0);
    } finally {
      await rag.close();
    }
  });

  it('drops an invalid citation and keeps the valid one', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve'),
      { answerable: true, reasons: ['states it'], missing_information: [] },
      (call) => {
        const chunkId =
          /\[chunk_id: (contracts\/ct-2024-0193\.md#\d+)\][^\n]*\n[^[]*\$48,000/.exec(call.prompt)?.[1] ?? 'missing';
        return {
          answer: 'The termination fee is $48,000 [1].',
          answerable: true,
          confidence: 0.9,
          citations: [
            {
              chunk_id: chunkId,
              doc_id: 'contracts/ct-2024-0193.md',
              source: 'x',
              quote: 'triggers a termination fee of $48,000',
            },
            {
              chunk_id: chunkId,
              doc_id: 'contracts/ct-2024-0193.md',
              source: 'x',
              quote: 'a termination fee of $99,000',
            },
            { chunk_id: 'policies/expenses.md#0', doc_id: 'policies/expenses.md', source: 'x', quote: 'anything' },
          ],
          missing_information: [],
        };
      },
    ]);
    const rag = await withModel(model);
    try {
      const run = await rag.ask({
        question: 'What is the termination fee of CT-2024-0193?',
        principal: await as('alice'),
      });
      expect(run.status).toBe('answered');
      expect(run.answer?.citations).toHaveLength(1);
      expect(run.answer?.citations[0]?.quote).toBe('triggers a termination fee of $48,000');
      const check = run.steps.find((step) => step.node === 'citation_check');
      expect(check?.summary).toMatch(/1 kept, 2 dropped/);
      expect(check?.summary).toMatch(/quote not found/);
    } finally {
      await rag.close();
    }
  });

  it('retries generation when every citation is dropped, feeding the reasons back', async () => {
    const bad = {
      answer: 'It is $48,000.',
      answerable: true,
      confidence: 0.9,
      citations: [{ chunk_id: 'nope#1', doc_id: 'nope', source: 'x', quote: 'q' }],
      missing_information: [],
    };
    const model = new RecordingChatModel([
      oneNeed,
      routeTo('retrieve'),
      { answerable: true, reasons: [], missing_information: [] },
      bad,
      bad,
    ]);
    const rag = await withModel(model);
    try {
      const run = await rag.ask({
        question: 'What is the termination fee of CT-2024-0193?',
        principal: await as('alice'),
      });
      expect(model.calls).toHaveLength(5);
      expect(model.calls[4]?.prompt).toContain("Your previous answer's citations were rejected");
      expect(run.status).toBe('refused');
      expect(run.answer?.answerable).toBe(false);
      expect(run.steps.filter((step) => step.node === 'generate')).toHaveLength(2);
    } finally {
      await rag.close();
    }
  });
});
