import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Through the package name, as a user imports it (package.json "exports").
import {
  evidentAskTool,
  evidentSearchTool,
  evidentTools,
  type AskToolOutput,
  type SearchToolOutput,
} from 'evident/langchain';
import { REFUSAL_TEXT } from '../../domain/answer.ts';
import {
  ADAPTER_MODES,
  FEE_QUESTION,
  restrictedSecrets,
  RESTRICTED_DOC,
  startAdapterTestServer,
  type AdapterTestServer,
} from '../../testing/adapter-test-targets.ts';
import { RecordingChatModel, type RecordedCall } from '../../testing/recording-chat-model.ts';

let server: AdapterTestServer;
beforeAll(async () => {
  server = await startAdapterTestServer();
});
afterAll(async () => server?.close());

/** A model that calls one tool, then answers with what the tool's message said (so the test sees the model read it). */
function toolCallingModel(name: string, args: Record<string, unknown>) {
  return new RecordingChatModel([
    new AIMessage({ content: '', tool_calls: [{ id: 'call-1', name, args, type: 'tool_call' }] }),
    (call: RecordedCall) =>
      `From the tool: ${String(call.messages.find((message) => ToolMessage.isInstance(message))?.content ?? '(nothing)')}`,
  ]);
}

const toolMessageOf = (messages: BaseMessage[]): ToolMessage => {
  const found = messages.find((message) => ToolMessage.isInstance(message));
  if (!found) throw new Error('the agent ran no tool');
  return found as ToolMessage;
};

describe.each(ADAPTER_MODES)('Evident tools in a LangGraph prebuilt agent (%s)', (mode) => {
  it('evident_search: the agent calls it, the model reads the passages, the artifact keeps the results', async () => {
    const model = toolCallingModel('evident_search', { query: 'termination fee contract CT-2024-0193', top_k: 2 });
    const agent = createReactAgent({ llm: model, tools: evidentTools(server.target(mode, 'alice')) });
    const { messages } = await agent.invoke({ messages: [{ role: 'user', content: FEE_QUESTION }] });
    expect(model.calls[0]?.tools).toEqual(['evident_search', 'evident_ask']);
    const toolMessage = toolMessageOf(messages);
    expect(toolMessage.status).not.toBe('error');
    const artifact = toolMessage.artifact as SearchToolOutput;
    expect(artifact.results).toHaveLength(2);
    expect(artifact.results[0]).toMatchObject({ doc_id: RESTRICTED_DOC, rank: 1 });
    expect(JSON.parse(String(toolMessage.content))).toEqual(artifact);
    // The model's second call saw the passage text, and the agent's last message is its answer.
    expect(model.calls[1]?.prompt).toContain('$48,000');
    expect(String(messages.at(-1)?.content)).toContain('$48,000');
  });

  it('evident_ask: one run of the rag agent, answered with the contract and its citations', async () => {
    const model = toolCallingModel('evident_ask', { question: FEE_QUESTION });
    const agent = createReactAgent({ llm: model, tools: [evidentAskTool(server.target(mode, 'alice'))] });
    const { messages } = await agent.invoke({
      messages: [{ role: 'user', content: 'Ask the knowledge base about the fee.' }],
    });
    const answer = toolMessageOf(messages).artifact as AskToolOutput;
    expect(answer).toMatchObject({ status: 'answered', answerable: true, missing_information: [] });
    expect(answer.answer).toContain('$48,000');
    expect(answer.citations?.[0]).toMatchObject({ doc_id: RESTRICTED_DOC, quote: expect.stringContaining('$48,000') });
    // The run went through the one run engine: recorded for alice, readable through the LangGraph API.
    const run = await server.api.request('GET', `/threads/${answer.thread_id}/runs/${answer.run_id}`, {
      key: server.api.keys.alice,
    });
    expect(run.status).toBe(200);
    expect(run.json).toMatchObject({ status: 'success' });
  });

  it('evident_ask: a side effect comes back pending, with how to decide, and never runs', async () => {
    const model = toolCallingModel('evident_ask', { question: 'Remember that I prefer answers in tables' });
    const agent = createReactAgent({ llm: model, tools: [evidentAskTool(server.target(mode, 'alice'))] });
    const { messages } = await agent.invoke({ messages: [{ role: 'user', content: 'Save my preference.' }] });
    const answer = toolMessageOf(messages).artifact as AskToolOutput;
    expect(answer.status).toBe('interrupted');
    expect(answer.pending_action).toMatchObject({ tool: 'save_memory', args: { text: 'I prefer answers in tables' } });
    expect(answer.note).toContain('has not run');
    expect(model.calls[1]?.prompt).toContain('waits for approval');
    expect(await server.api.evident.store.listMemories('alice')).toEqual([]);
  });

  it('bob (engineering) gets a refusal and not a word of the legal-only contract, through either tool', async () => {
    const secrets = await restrictedSecrets();
    for (const [name, args] of [
      ['evident_ask', { question: FEE_QUESTION }],
      ['evident_search', { query: FEE_QUESTION }],
    ] as const) {
      const model = toolCallingModel(name, args);
      const agent = createReactAgent({ llm: model, tools: evidentTools(server.target(mode, 'bob')) });
      const { messages } = await agent.invoke({ messages: [{ role: 'user', content: FEE_QUESTION }] });
      const toolMessage = toolMessageOf(messages);
      const everything = JSON.stringify(messages) + JSON.stringify(toolMessage.artifact) + model.prompts.join('\n');
      for (const secret of secrets) expect(everything).not.toContain(secret);
      if (name === 'evident_ask')
        expect(toolMessage.artifact).toMatchObject({
          status: 'refused',
          answerable: false,
          citations: [],
          answer: expect.stringContaining(REFUSAL_TEXT),
        });
      else
        expect((toolMessage.artifact as SearchToolOutput).results.map((result) => result.doc_id)).not.toContain(
          RESTRICTED_DOC,
        );
    }
  });
});

describe('Evident tools: input bounds and errors', () => {
  it('rejects input outside the schema before reaching Evident', async () => {
    const search = evidentSearchTool(server.target('http', 'alice'));
    await expect(search.invoke({ query: '' })).rejects.toThrow();
    await expect(search.invoke({ query: 'fee', top_k: 500 })).rejects.toThrow();
    await expect(
      evidentAskTool(server.target('http', 'alice')).invoke({ question: 'x'.repeat(10_000) }),
    ).rejects.toThrow();
  });

  it('a bad key fails the tool call with the typed error, which the prebuilt agent hands the model as an error', async () => {
    const search = evidentSearchTool({ url: server.api.url, apiKey: 'not-a-key' });
    await expect(search.invoke({ query: 'fee' })).rejects.toMatchObject({
      code: 'unauthorized',
      name: 'UnauthorizedError',
    });
    const model = toolCallingModel('evident_search', { query: 'fee' });
    const agent = createReactAgent({ llm: model, tools: [search] });
    const { messages } = await agent.invoke({ messages: [{ role: 'user', content: 'fee?' }] });
    const toolMessage = toolMessageOf(messages);
    expect(toolMessage.status).toBe('error');
    expect(String(toolMessage.content)).toContain('Missing or invalid API key');
  });

  it("continues the user's own thread; another user's thread reads as missing, in process and over HTTP", async () => {
    for (const mode of ADAPTER_MODES) {
      const first = (
        await evidentAskTool(server.target(mode, 'alice')).invoke({
          id: 'c1',
          name: 'evident_ask',
          args: { question: FEE_QUESTION },
          type: 'tool_call',
        })
      ).artifact as AskToolOutput;
      const again = evidentAskTool(server.target(mode, 'alice'), { threadId: first.thread_id });
      const second = (
        await again.invoke({ id: 'c2', name: 'evident_ask', args: { question: FEE_QUESTION }, type: 'tool_call' })
      ).artifact as AskToolOutput;
      expect(second.thread_id).toBe(first.thread_id);
      expect(second.run_id).not.toBe(first.run_id);
      const intruder = evidentAskTool(server.target(mode, 'bob'), { threadId: first.thread_id });
      await expect(intruder.invoke({ question: FEE_QUESTION })).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('an unknown agent is refused by name, in process and over HTTP', async () => {
    for (const mode of ADAPTER_MODES) {
      await expect(
        evidentAskTool(server.target(mode, 'alice'), { agent: 'nope' }).invoke({ question: FEE_QUESTION }),
      ).rejects.toMatchObject({ code: 'unknown_agent' });
    }
  });
});
