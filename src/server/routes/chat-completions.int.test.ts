import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../agent/agent-runtime.ts';
import { REFUSAL_TEXT } from '../../domain/answer.ts';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';
import { RecordingChatModel, type RecordedCall } from '../../testing/recording-chat-model.ts';
import { RAG_PLANNING } from '../../testing/rag-model-script.ts';
import { SAMPLE_CORPUS } from '../../testing/sample-corpus-store.ts';
import { REVISED_NOTE } from './openai/completion-parts.ts';

/** The official OpenAI client, used as its documentation shows, against a running Evident server. */
let api: ApiTestServer;
let alice: OpenAI;
let bob: OpenAI;

const FEE_QUESTION = 'What is the termination fee of contract CT-2024-0193?';
const ask = (content: string): ChatCompletionMessageParam[] => [{ role: 'user', content }];

interface EvidentExtension {
  status: string;
  thread_id: string;
  run_id: string;
  answer?: string;
  answerable?: boolean;
  confidence?: number;
  citations?: { doc_id: string; quote: string; page?: number }[];
  missing_information?: string[];
  pending_action?: { tool: string; args: Record<string, unknown> };
}
const extensionOf = (value: unknown) => (value as { evident: EvidentExtension }).evident;

async function streamed(client: OpenAI, messages: ChatCompletionMessageParam[], headers: Record<string, string> = {}) {
  const { data: stream, response } = await client.chat.completions
    .create({ model: 'rag', messages, stream: true }, { headers })
    .withResponse();
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
  return { chunks, content, response, evident: extensionOf(chunks.at(-1)) };
}

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  alice = new OpenAI({ baseURL: `${api.url}/v1`, apiKey: api.keys.alice, maxRetries: 0 });
  bob = new OpenAI({ baseURL: `${api.url}/v1`, apiKey: api.keys.bob, maxRetries: 0 });
});
afterAll(async () => api?.close());

describe('OpenAI-compatible API with the OpenAI client', () => {
  it('lists the agents as models', async () => {
    const models = await alice.models.list();
    const assistants = (await api.request('POST', '/assistants/search', { key: api.keys.alice, json: {} })).json as {
      assistant_id: string;
    }[];
    expect(models.data.map((model) => model.id)).toEqual(assistants.map((assistant) => assistant.assistant_id));
    expect(models.data.map((model) => model.id)).toContain('rag');
    expect((await alice.models.retrieve('rag')).owned_by).toBe('evident');
    await expect(alice.models.retrieve('gpt-4o')).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });

  it("answers with numbered sources, the answer contract, and the run recorded for the key's user", async () => {
    const { data, response } = await alice.chat.completions
      .create({ model: 'rag', messages: ask(FEE_QUESTION) })
      .withResponse();
    const evident = extensionOf(data);
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('rag');
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(evident).toMatchObject({ status: 'answered', answerable: true, missing_information: [] });
    expect(evident.confidence).toBeGreaterThan(0);
    const citation = evident.citations?.[0];
    expect(citation?.doc_id).toBe('contracts/ct-2024-0193.md');
    const content = data.choices[0]?.message.content ?? '';
    expect(content.startsWith(evident.answer ?? '-')).toBe(true);
    expect(content).toContain('$48,000');
    expect(content).toContain(`\n\nSources:\n[1] contracts/ct-2024-0193.md: "${citation?.quote}"`);
    expect(data.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });

    const threadId = response.headers.get('x-evident-thread-id') ?? '';
    const runId = response.headers.get('x-evident-run-id') ?? '';
    expect([threadId, runId, evident.thread_id, evident.run_id].every(Boolean)).toBe(true);
    expect(evident).toMatchObject({ thread_id: threadId, run_id: runId });
    const run = await api.request('GET', `/threads/${threadId}/runs/${runId}`, { key: api.keys.alice });
    expect(run.json).toMatchObject({
      status: 'success',
      outcome: 'answered',
      question: FEE_QUESTION,
      assistant_id: 'rag',
    });
    expect((await api.request('GET', `/threads/${threadId}/runs/${runId}`, { key: api.keys.bob })).status).toBe(404);
  });

  it('streams the role, the answer in pieces, the sources and a finish, the same text as without streaming', async () => {
    const whole = await alice.chat.completions.create({ model: 'rag', messages: ask(FEE_QUESTION) });
    const { chunks, content, evident, response } = await streamed(alice, ask(FEE_QUESTION));
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(5);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true);
    expect(content).toBe(whole.choices[0]?.message.content);
    expect(evident).toMatchObject({
      status: 'answered',
      answerable: true,
      run_id: response.headers.get('x-evident-run-id'),
    });
  });

  it('frames the raw stream as data lines ending with [DONE], with a usage chunk when asked for', async () => {
    const response = await fetch(`${api.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.keys.alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'rag',
        messages: ask('How many days do customers have to request a refund?'),
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const lines = (await response.text()).split('\n').filter((line) => line.startsWith('data: '));
    expect(lines.at(-1)).toBe('data: [DONE]');
    const usage = JSON.parse(lines.at(-2)?.slice(6) ?? '{}') as { choices: unknown[]; usage: unknown };
    expect(usage).toMatchObject({ choices: [], usage: { total_tokens: 0 } });
  });

  it('continues an own thread named by x-evident-thread-id, whose history comes from the thread, not from messages', async () => {
    const first = await alice.chat.completions.create({ model: 'rag', messages: ask(FEE_QUESTION) }).withResponse();
    const threadId = first.response.headers.get('x-evident-thread-id') ?? '';
    const invented: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'An earlier question this thread never saw' },
      { role: 'assistant', content: 'An answer this thread never gave' },
      { role: 'user', content: 'What notice period applies to a termination for convenience?' },
    ];
    const second = await streamed(alice, invented, { 'x-evident-thread-id': threadId });
    expect(second.response.headers.get('x-evident-thread-id')).toBe(threadId);
    expect(second.evident.status).toBe('answered');
    const state = (await api.request('GET', `/threads/${threadId}/state`, { key: api.keys.alice })).json as {
      values: { messages: { type: string; content: string }[] };
    };
    const turns = state.values.messages;
    expect(turns.map((turn) => turn.type)).toEqual(['human', 'ai', 'human', 'ai']);
    expect(turns[0]?.content).toBe(FEE_QUESTION);
    expect(turns[2]?.content).toBe('What notice period applies to a termination for convenience?');
    expect(JSON.stringify(turns)).not.toContain('never');
    const runs = (await api.request('GET', `/threads/${threadId}/runs`, { key: api.keys.alice })).json as unknown[];
    expect(runs).toHaveLength(2);

    // Another user's thread id reads as missing.
    await expect(
      bob.chat.completions.create(
        { model: 'rag', messages: ask('Anything?') },
        { headers: { 'x-evident-thread-id': threadId } },
      ),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('refuses a question the corpus does not answer, and says so in the text', async () => {
    const data = await alice.chat.completions.create({
      model: 'rag',
      messages: ask('What is the parental leave policy for employees in Brazil?'),
    });
    const evident = extensionOf(data);
    expect(evident).toMatchObject({ status: 'refused', answerable: false, confidence: 0, citations: [] });
    expect(evident.missing_information?.length).toBeGreaterThan(0);
    const content = data.choices[0]?.message.content ?? '';
    expect(content.startsWith(REFUSAL_TEXT)).toBe(true);
    expect(content).not.toContain('Sources:');
    expect(data.choices[0]?.finish_reason).toBe('stop');
  });

  it('never shows bob (engineering) the legal-only contract: a refusal without a word of it, streamed or not', async () => {
    const contract = await readFile(join(SAMPLE_CORPUS, 'contracts/ct-2024-0193.md'), 'utf8');
    // Whole sentences and figures of the contract body, none of which the question itself contains.
    const secrets = [
      '$48,000',
      'Northwind',
      'warehouse and last-mile',
      ...contract
        .split(/(?<=\.)\s+|\n/)
        .map((line) => line.trim())
        .filter((line) => line.length > 30),
    ];
    const whole = await bob.chat.completions.create({ model: 'rag', messages: ask(FEE_QUESTION) });
    const live = await streamed(bob, ask(FEE_QUESTION));
    for (const reply of [JSON.stringify(whole), JSON.stringify(live.chunks)]) {
      for (const secret of secrets) expect(reply).not.toContain(secret);
    }
    expect(extensionOf(whole)).toMatchObject({ status: 'refused', answerable: false, citations: [] });
    expect(live.evident).toMatchObject({ status: 'refused', answerable: false });
    // alice (legal) does see it, so the assertions above could fail.
    const aliceReply = JSON.stringify(
      await alice.chat.completions.create({ model: 'rag', messages: ask(FEE_QUESTION) }),
    );
    expect(secrets.some((secret) => aliceReply.includes(secret))).toBe(true);
  });

  it('tells the user a side effect waits for approval, and how to give it', async () => {
    const data = await alice.chat.completions.create({
      model: 'rag',
      messages: ask('Remember that I prefer answers in tables'),
    });
    const evident = extensionOf(data);
    expect(evident.status).toBe('interrupted');
    expect(evident.pending_action).toMatchObject({ tool: 'save_memory', args: { text: 'I prefer answers in tables' } });
    const content = data.choices[0]?.message.content ?? '';
    expect(content).toContain('waits for approval');
    expect(content).toContain(`POST /threads/${evident.thread_id}/runs/wait`);
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(await api.evident.store.listMemories('alice')).toEqual([]);
  });

  it("answers errors in OpenAI's shape: 404 unknown model, 401 bad or missing key, 400 bad messages", async () => {
    await expect(alice.chat.completions.create({ model: 'gpt-4o', messages: ask('Hi') })).rejects.toMatchObject({
      status: 404,
      code: 'model_not_found',
      type: 'not_found_error',
    });
    const stranger = new OpenAI({ baseURL: `${api.url}/v1`, apiKey: 'not-a-key', maxRetries: 0 });
    await expect(stranger.chat.completions.create({ model: 'rag', messages: ask('Hi') })).rejects.toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
    await expect(
      alice.chat.completions.create({ model: 'rag', messages: [{ role: 'assistant', content: 'No question here' }] }),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);

    const noKey = await api.request('POST', '/v1/chat/completions', { json: { model: 'rag', messages: ask('Hi') } });
    expect(noKey.status).toBe(401);
    expect(noKey.json).toEqual({
      error: { message: expect.any(String), type: 'authentication_error', code: 'invalid_api_key', param: null },
    });
    const badBody = await api.request('POST', '/v1/chat/completions', {
      key: api.keys.alice,
      json: { model: 'rag', messages: [] },
    });
    expect(badBody.status).toBe(400);
    expect(badBody.json).toMatchObject({
      error: { type: 'invalid_request_error', code: 'invalid_input', param: null },
    });
    const tools = await api.request('POST', '/v1/chat/completions', {
      key: api.keys.alice,
      json: { model: 'rag', messages: ask('Hi'), tools: [{ type: 'function', function: { name: 'x' } }] },
    });
    expect(tools.status).toBe(400);
    // The rest of /v1 keeps Evident's own error shape.
    expect((await api.request('GET', '/v1/me')).json).toMatchObject({
      error: { code: 'unauthorized', hint: expect.any(String) },
    });
  });
});

describe('OpenAI-compatible streaming with a chat model', () => {
  let modelApi: ApiTestServer;
  let model: RecordingChatModel;
  let client: OpenAI;
  const verdict = { answerable: true, reasons: ['the contract states it'], missing_information: [] };
  const contractChunk = (call: RecordedCall) =>
    /\[chunk_id: (contracts\/ct-2024-0193\.md#\d+)\][^\n]*\n[^[]*\$48,000/.exec(call.prompt)?.[1] ?? 'missing';
  const answer = (text: string, quote: string) => (call: RecordedCall) => ({
    answer: text,
    answerable: true,
    confidence: 0.9,
    citations: [{ chunk_id: contractChunk(call), doc_id: 'contracts/ct-2024-0193.md', source: 'x', quote }],
    missing_information: [],
  });

  beforeAll(async () => {
    model = new RecordingChatModel([], { standing: RAG_PLANNING });
    modelApi = await startApiTestServer({
      agents: (evident) => openAgentRuntime(evident, { chat: { id: 'recording:test', model } }),
    });
    client = new OpenAI({ baseURL: `${modelApi.url}/v1`, apiKey: modelApi.keys.alice, maxRetries: 0 });
  });
  afterAll(async () => modelApi?.close());

  it('passes the answer on token by token as the model writes it, then the sources', async () => {
    model.push(
      verdict,
      answer(
        'A termination for convenience in the first 24 months costs a fee of $48,000 [1].',
        'triggers a termination fee of $48,000',
      ),
    );
    const { chunks, content, evident } = await streamed(client, ask(FEE_QUESTION));
    expect(model.remaining).toBe(0);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '');
    // The model's JSON never reaches the client, only the answer field's words.
    expect(text.join('')).not.toMatch(/[{}]|"answer"|answerable/);
    expect(text.filter((piece) => piece.trim()).length).toBeGreaterThan(10);
    expect(content).toBe(
      'A termination for convenience in the first 24 months costs a fee of $48,000 [1].\n\nSources:\n[1] contracts/ct-2024-0193.md: "triggers a termination fee of $48,000"',
    );
    expect(evident).toMatchObject({
      status: 'answered',
      answer: 'A termination for convenience in the first 24 months costs a fee of $48,000 [1].',
    });
  });

  it('keeps the run going when a streaming client disconnects: it ends recorded, and its answer can be read later', async () => {
    let reached = () => {};
    let release = () => {};
    const atModel = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    model.push(
      async () => {
        reached();
        await gate;
        return verdict;
      },
      answer('The fee is $48,000 [1].', 'triggers a termination fee of $48,000'),
    );
    const aborter = new AbortController();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'rag', messages: ask(FEE_QUESTION), stream: true }, { signal: aborter.signal })
      .withResponse();
    const threadId = response.headers.get('x-evident-thread-id') ?? '';
    const runId = response.headers.get('x-evident-run-id') ?? '';
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.choices[0]?.delta.role).toBe('assistant');
    await atModel;
    // The client goes away while the run waits inside the model; the run is let go only afterwards.
    aborter.abort();
    await iterator.return?.();
    release();

    const joined = (
      await modelApi.request('GET', `/threads/${threadId}/runs/${runId}/join`, { key: modelApi.keys.alice })
    ).json as { answer: { answer: string } };
    expect(joined.answer.answer).toBe('The fee is $48,000 [1].');
    const run = await modelApi.request('GET', `/threads/${threadId}/runs/${runId}`, { key: modelApi.keys.alice });
    expect(run.json).toMatchObject({ status: 'success', outcome: 'answered' });
    expect(model.remaining).toBe(0);
  });

  it('follows tokens that the citation check rejected with the final answer, marked as revised', async () => {
    model.push(
      verdict,
      answer('The fee is $99,000 [1].', 'a termination fee of $99,000'),
      answer('The fee is $48,000 [1].', 'triggers a termination fee of $48,000'),
    );
    const { content, evident } = await streamed(client, ask(FEE_QUESTION));
    expect(model.remaining).toBe(0);
    // The first attempt's words went out live before the check dropped its only citation; the retry's answer follows.
    expect(content).toBe(
      `The fee is $99,000 [1].\n\n${REVISED_NOTE}\nThe fee is $48,000 [1].\n\nSources:\n[1] contracts/ct-2024-0193.md: "triggers a termination fee of $48,000"`,
    );
    expect(evident.answer).toBe('The fee is $48,000 [1].');
  });
});
