import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { LIMITS_DEFAULTS } from '../../../config/index.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';

/** The field limits of runs, threads and chat completions, over real HTTP: refused before any run or thread exists. */
let api: ApiTestServer;
let threadId: string;

interface ErrorShape {
  error: { code: string; message: string; hint?: string | null };
}
const errorOf = (json: unknown) => (json as ErrorShape).error;
const post = (path: string, json: unknown) => api.request('POST', path, { key: api.keys.alice, json });
const tooLong = (limit: number) => `What is the fee ${'of the contract '.repeat(Math.ceil(limit / 16))}?`;
/** Metadata nested `depth` levels deep (`{"a": 1}` is 1). */
const nested = (depth: number): Record<string, unknown> => (depth <= 1 ? { a: 1 } : { a: nested(depth - 1) });

async function expectRefused(sent: { status: number; json: unknown }, setting: string): Promise<void> {
  expect([sent.status, errorOf(sent.json).code]).toEqual([400, 'input_too_large']);
  // LangGraph routes carry the hint; the OpenAI-compatible one ends its message with it.
  expect(errorOf(sent.json).hint ?? errorOf(sent.json).message).toContain(setting);
  const health = await api.request('GET', '/health');
  expect(health.status).toBe(200);
}

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  threadId = ((await post('/threads', {})).json as { thread_id: string }).thread_id;
});
afterAll(async () => api?.close());

describe('run limits (LangGraph API)', () => {
  const runPaths = () => [
    `/threads/${threadId}/runs`,
    `/threads/${threadId}/runs/stream`,
    `/threads/${threadId}/runs/wait`,
    '/runs/wait',
  ];

  it('refuses a question over limits.maxQuestionChars, as input.question and as the last message, and starts no run', async () => {
    const question = tooLong(LIMITS_DEFAULTS.maxQuestionChars);
    for (const path of runPaths()) {
      await expectRefused(
        await post(path, { assistant_id: 'rag', input: { question } }),
        'limits.maxQuestionChars (EVIDENT_MAX_QUESTION_CHARS)',
      );
      await expectRefused(
        await post(path, { assistant_id: 'rag', input: { messages: [{ role: 'user', content: question }] } }),
        'limits.maxQuestionChars',
      );
    }
    const sent = await post(`/threads/${threadId}/runs/wait`, { assistant_id: 'rag', input: { question } });
    expect(errorOf(sent.json).message).toBe(
      `The question has ${question.trim().length} characters; the limit is ${LIMITS_DEFAULTS.maxQuestionChars}.`,
    );
    expect(await api.evident.store.listRuns(threadId, 'alice')).toEqual([]);
    expect((await api.evident.store.listThreads('alice')).map((thread) => thread.threadId)).toEqual([threadId]);
  });

  it('refuses more messages than limits.maxMessages', async () => {
    const messages = Array.from({ length: LIMITS_DEFAULTS.maxMessages + 1 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `turn ${i}`,
    }));
    messages.push({ role: 'user', content: 'What is the termination fee?' });
    await expectRefused(
      await post(`/threads/${threadId}/runs/wait`, { assistant_id: 'rag', input: { messages } }),
      'limits.maxMessages (EVIDENT_MAX_MESSAGES)',
    );
    expect(await api.evident.store.listRuns(threadId, 'alice')).toEqual([]);
  });

  it('refuses run metadata over limits.maxMetadataBytes or limits.maxMetadataDepth', async () => {
    const input = { question: 'What is the termination fee of CT-2024-0193?' };
    const big = { note: 'x'.repeat(LIMITS_DEFAULTS.maxMetadataBytes) };
    await expectRefused(
      await post(`/threads/${threadId}/runs/wait`, { assistant_id: 'rag', input, metadata: big }),
      'limits.maxMetadataBytes (EVIDENT_MAX_METADATA_BYTES)',
    );
    await expectRefused(
      await post('/runs/wait', { assistant_id: 'rag', input, metadata: nested(LIMITS_DEFAULTS.maxMetadataDepth + 1) }),
      'limits.maxMetadataDepth (EVIDENT_MAX_METADATA_DEPTH)',
    );
    expect(await api.evident.store.listRuns(threadId, 'alice')).toEqual([]);
    expect((await api.evident.store.listThreads('alice')).length).toBe(1);
  });

  it('refuses names that would be quoted back whole (assistant, model, message role)', async () => {
    const long = 'r'.repeat(10_000);
    for (const [path, body] of [
      ['/runs/wait', { assistant_id: long, input: { question: 'What is the fee?' } }],
      [
        '/runs/wait',
        {
          assistant_id: 'rag',
          input: {
            messages: [
              { role: long, content: 'x' },
              { role: 'user', content: 'What is the fee?' },
            ],
          },
        },
      ],
      ['/v1/chat/completions', { model: long, messages: [{ role: 'user', content: 'What is the fee?' }] }],
    ] as const) {
      const sent = await post(path, body);
      expect([path, sent.status]).toEqual([path, 400]);
      expect(sent.text.length).toBeLessThan(1_000);
    }
  });

  it('runs a question at the limits', async () => {
    const question = `What is the termination fee of CT-2024-0193?${' '.repeat(8)}${'x'.repeat(LIMITS_DEFAULTS.maxQuestionChars - 52)}`;
    expect(question.length).toBe(LIMITS_DEFAULTS.maxQuestionChars);
    const sent = await post(`/threads/${threadId}/runs/wait`, {
      assistant_id: 'rag',
      input: { question },
      metadata: nested(LIMITS_DEFAULTS.maxMetadataDepth),
    });
    expect(sent.status).toBe(200);
    expect((await api.evident.store.listRuns(threadId, 'alice')).length).toBe(1);
  });
});

describe('thread metadata limits', () => {
  it('refuses thread metadata over limits.maxMetadataBytes and creates nothing', async () => {
    const sent = await post('/threads', {
      thread_id: 'too-much-metadata',
      metadata: { note: 'x'.repeat(LIMITS_DEFAULTS.maxMetadataBytes) },
    });
    await expectRefused(sent, 'limits.maxMetadataBytes (EVIDENT_MAX_METADATA_BYTES)');
    expect(errorOf(sent.json).message).toBe(
      `Metadata has ${LIMITS_DEFAULTS.maxMetadataBytes + 11} bytes as JSON; the limit is ${LIMITS_DEFAULTS.maxMetadataBytes}.`,
    );
    expect(await api.evident.store.getThread('too-much-metadata')).toBeUndefined();
  });

  it('refuses thread metadata nested deeper than limits.maxMetadataDepth, and takes it at the limit', async () => {
    await expectRefused(
      await post('/threads', { thread_id: 'too-deep', metadata: nested(LIMITS_DEFAULTS.maxMetadataDepth + 1) }),
      'limits.maxMetadataDepth (EVIDENT_MAX_METADATA_DEPTH)',
    );
    expect(await api.evident.store.getThread('too-deep')).toBeUndefined();
    const atLimit = await post('/threads', {
      thread_id: 'deep-enough',
      metadata: nested(LIMITS_DEFAULTS.maxMetadataDepth),
    });
    expect(atLimit.status).toBe(200);
    expect((await api.evident.store.getThread('deep-enough'))?.metadata).toEqual(
      nested(LIMITS_DEFAULTS.maxMetadataDepth),
    );
  });

  it('refuses a metadata filter over the limits in a thread search', async () => {
    await expectRefused(
      await post('/threads/search', { metadata: { note: 'x'.repeat(LIMITS_DEFAULTS.maxMetadataBytes) } }),
      'limits.maxMetadataBytes',
    );
    await expectRefused(
      await post('/threads/search', { metadata: nested(LIMITS_DEFAULTS.maxMetadataDepth + 1) }),
      'limits.maxMetadataDepth',
    );
  });
});

describe('chat completion limits', () => {
  it("refuses a last message over limits.maxQuestionChars and more messages than limits.maxMessages, in OpenAI's shape", async () => {
    const threadsBefore = (await api.evident.store.listThreads('alice')).length;
    const long = await post('/v1/chat/completions', {
      model: 'rag',
      messages: [{ role: 'user', content: tooLong(LIMITS_DEFAULTS.maxQuestionChars) }],
    });
    await expectRefused(long, 'limits.maxQuestionChars (EVIDENT_MAX_QUESTION_CHARS)');
    expect((long.json as { error: { type: string } }).error.type).toBe('invalid_request_error');
    const messages = Array.from({ length: LIMITS_DEFAULTS.maxMessages + 1 }, () => ({
      role: 'user',
      content: 'What is the termination fee?',
    }));
    await expectRefused(
      await post('/v1/chat/completions', { model: 'rag', messages }),
      'limits.maxMessages (EVIDENT_MAX_MESSAGES)',
    );
    expect((await api.evident.store.listThreads('alice')).length).toBe(threadsBefore);
  });
});
