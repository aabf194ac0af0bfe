import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
// Through the package name, as a user imports it (package.json "exports").
import { evidentSearchTool, evidentTools, type AskToolOutput, type SearchToolOutput } from 'evident/ai-sdk';
import { REFUSAL_TEXT } from '../../domain/answer.ts';
import {
  ADAPTER_MODES,
  FEE_QUESTION,
  restrictedSecrets,
  RESTRICTED_DOC,
  startAdapterTestServer,
  type AdapterTestServer,
} from '../../testing/adapter-test-targets.ts';

let server: AdapterTestServer;
beforeAll(async () => {
  server = await startAdapterTestServer();
});
afterAll(async () => server?.close());

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** AI SDK's mock model: the first step calls one tool, the second answers. Every call's prompt is kept in `doGenerateCalls`. */
function toolCallingModel(toolName: string, input: Record<string, unknown>) {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: 'text', text: 'Answered from the knowledge base.' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });
}

/** What the model was shown in its second step (the tool result among it). */
const secondPrompt = (model: MockLanguageModelV3) => JSON.stringify(model.doGenerateCalls[1]?.prompt ?? []);

describe.each(ADAPTER_MODES)('Evident tools with generateText and the mock model (%s)', (mode) => {
  it('evident_search: the model calls it and reads the passages of the next step', async () => {
    const model = toolCallingModel('evident_search', { query: 'termination fee contract CT-2024-0193', top_k: 2 });
    const result = await generateText({
      model,
      tools: evidentTools(server.target(mode, 'alice')),
      stopWhen: stepCountIs(3),
      prompt: FEE_QUESTION,
    });
    expect(model.doGenerateCalls[0]?.tools?.map((tool) => tool.name)).toEqual(['evident_search', 'evident_ask']);
    const output = result.steps[0]?.toolResults[0]?.output as SearchToolOutput;
    expect(output.results).toHaveLength(2);
    expect(output.results[0]).toMatchObject({ doc_id: RESTRICTED_DOC, rank: 1 });
    expect(secondPrompt(model)).toContain('$48,000');
    expect(result.text).toBe('Answered from the knowledge base.');
  });

  it('evident_ask: the answer contract with citations, from a run of the one run engine', async () => {
    const model = toolCallingModel('evident_ask', { question: FEE_QUESTION });
    const result = await generateText({
      model,
      tools: evidentTools(server.target(mode, 'alice')),
      stopWhen: stepCountIs(3),
      prompt: 'Ask about the fee.',
    });
    const answer = result.steps[0]?.toolResults[0]?.output as AskToolOutput;
    expect(answer).toMatchObject({ status: 'answered', answerable: true });
    expect(answer.citations?.[0]).toMatchObject({ doc_id: RESTRICTED_DOC, quote: expect.stringContaining('$48,000') });
    const run = await server.api.request('GET', `/threads/${answer.thread_id}/runs/${answer.run_id}`, {
      key: server.api.keys.alice,
    });
    expect(run.status).toBe(200);
  });

  it('evident_ask: a side effect comes back pending and never runs', async () => {
    const model = toolCallingModel('evident_ask', { question: 'Remember that I prefer answers in tables' });
    const result = await generateText({
      model,
      tools: evidentTools(server.target(mode, 'alice')),
      stopWhen: stepCountIs(3),
      prompt: 'Save my preference.',
    });
    const answer = result.steps[0]?.toolResults[0]?.output as AskToolOutput;
    expect(answer).toMatchObject({
      status: 'interrupted',
      pending_action: { tool: 'save_memory', args: { text: 'I prefer answers in tables' } },
    });
    expect(secondPrompt(model)).toContain('has not run');
    expect(await server.api.evident.store.listMemories('alice')).toEqual([]);
  });

  it('bob (engineering) gets a refusal and not a word of the legal-only contract', async () => {
    const secrets = await restrictedSecrets();
    for (const [name, input] of [
      ['evident_ask', { question: FEE_QUESTION }],
      ['evident_search', { query: FEE_QUESTION }],
    ] as const) {
      const model = toolCallingModel(name, input);
      const result = await generateText({
        model,
        tools: evidentTools(server.target(mode, 'bob')),
        stopWhen: stepCountIs(3),
        prompt: FEE_QUESTION,
      });
      const output = result.steps[0]?.toolResults[0]?.output;
      const everything = JSON.stringify(result.steps) + secondPrompt(model);
      for (const secret of secrets) expect(everything).not.toContain(secret);
      if (name === 'evident_ask')
        expect(output).toMatchObject({
          status: 'refused',
          answerable: false,
          citations: [],
          answer: expect.stringContaining(REFUSAL_TEXT),
        });
      else expect((output as SearchToolOutput).results.map((result) => result.doc_id)).not.toContain(RESTRICTED_DOC);
    }
  });
});

describe('Evident AI SDK tools: errors', () => {
  it('a bad key is a tool error carrying the typed error, shown to the model as an error', async () => {
    const model = toolCallingModel('evident_search', { query: 'fee' });
    const result = await generateText({
      model,
      tools: { evident_search: evidentSearchTool({ url: server.api.url, apiKey: 'not-a-key' }) },
      stopWhen: stepCountIs(3),
      prompt: 'fee?',
    });
    const failure = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect(failure?.error).toMatchObject({ code: 'unauthorized', name: 'UnauthorizedError' });
    expect(secondPrompt(model)).toContain('Missing or invalid API key');
  });

  it('an in-process ask is recorded in the audit log as the user, through the ai-sdk surface', async () => {
    const { store } = server.api.evident;
    await store.upsertUser({ name: 'frank', groups: ['legal'] });
    const model = toolCallingModel('evident_ask', { question: FEE_QUESTION });
    const result = await generateText({
      model,
      tools: evidentTools({ evident: server.api.evident, user: 'frank' }),
      stopWhen: stepCountIs(3),
      prompt: 'fee?',
    });
    const answer = result.steps[0]?.toolResults[0]?.output as AskToolOutput;
    await vi.waitFor(async () => {
      const [entry] = await store.listAudit({ actor: 'frank', action: 'ask', limit: 1 });
      expect(entry).toMatchObject({ surface: 'ai-sdk', runId: answer.run_id, citedDocIds: [RESTRICTED_DOC] });
    });
  });

  it('input outside the schema never reaches Evident', async () => {
    const model = toolCallingModel('evident_search', { query: 'fee', top_k: 500 });
    const result = await generateText({
      model,
      tools: evidentTools(server.target('http', 'alice')),
      stopWhen: stepCountIs(3),
      prompt: 'fee?',
    });
    expect(result.steps[0]?.toolResults).toEqual([]);
    expect(result.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
  });
});
