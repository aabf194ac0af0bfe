import { tool } from '@langchain/core/tools';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentFactory } from '../../../agent/agent-context.ts';
import { AGENTS, openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { defineAgent } from '../../../runs/define-agent.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';

/**
 * The `tools` stream mode, with the official SDK: an application's own agent whose node calls a LangChain tool (the
 * built-in agents dispatch their tools themselves and report them as `custom` step events) streams the tool's start
 * and end, recorded like every detail mode and replayed through join.
 */
const lookup = tool(async ({ query }: { query: string }) => `found: ${query}`, {
  name: 'lookup',
  description: 'Looks the query up.',
  schema: z.object({ query: z.string() }),
});

const State = Annotation.Root({
  question: Annotation<string>(),
  principal: Annotation<unknown>(),
  thread_id: Annotation<string>(),
  run_id: Annotation<string>(),
  history: Annotation<unknown[]>(),
  status: Annotation<string>(),
  answer: Annotation<string>(),
});

const toolAgent: AgentFactory = (context) =>
  defineAgent({
    name: 'tool-agent',
    description: 'Answers with what a LangChain tool found.',
    streamsMessages: false,
    graph: new StateGraph(State)
      .addNode('look_up', async (state, config) => {
        const found = await lookup.invoke({ query: state.question }, config);
        return { answer: String(found), status: 'answered' };
      })
      .addEdge(START, 'look_up')
      .addEdge('look_up', END)
      .compile({ checkpointer: context.checkpointer }),
  });

let api: ApiTestServer;
let alice: Client;
beforeAll(async () => {
  api = await startApiTestServer({
    corpus: false,
    agents: (evident) => openAgentRuntime(evident, { agents: [...AGENTS, toolAgent] }),
  });
  alice = new Client({ apiUrl: api.url, apiKey: api.keys.alice });
});
afterAll(async () => api?.close());

interface Part {
  event: string;
  data: unknown;
  id?: string;
}
async function collect(stream: AsyncIterable<unknown>): Promise<Part[]> {
  const parts: Part[] = [];
  for await (const part of stream) parts.push(part as Part);
  return parts;
}

describe('the tools stream mode', () => {
  it("streams a LangChain tool's start and end, and replays them through join", async () => {
    const thread = await alice.threads.create();
    const parts = await collect(
      alice.runs.stream(thread.thread_id, 'tool-agent', {
        input: { messages: [{ role: 'user', content: 'termination fee' }] },
        streamMode: ['values', 'tools'],
      }),
    );
    expect(parts.filter((part) => part.event === 'error')).toEqual([]);
    expect((parts[0]?.data as { stream_modes: string[] }).stream_modes).toContain('tools');
    const tools = parts.filter((part) => part.event === 'tools').map((part) => part.data);
    expect(tools).toEqual([
      // The input as LangChain hands it to callbacks (JSON text), as LangGraph's own server sends it.
      { event: 'on_tool_start', name: 'lookup', input: JSON.stringify({ query: 'termination fee' }) },
      { event: 'on_tool_end', name: 'lookup', output: 'found: termination fee' },
    ]);
    const values = parts.filter((part) => part.event === 'values').at(-1)?.data as { answer: string };
    expect(values.answer).toBe('found: termination fee');

    const runId = (parts[0]?.data as { run_id: string }).run_id;
    const joined = await collect(alice.runs.joinStream(thread.thread_id, runId, { streamMode: ['tools'] }));
    expect(joined.filter((part) => part.event === 'tools').map((part) => part.data)).toEqual(tools);
  });

  it('is not recorded for a run created without it', async () => {
    const thread = await alice.threads.create();
    const parts = await collect(
      alice.runs.stream(thread.thread_id, 'tool-agent', {
        input: { messages: [{ role: 'user', content: 'anything' }] },
        streamMode: ['values'],
      }),
    );
    const runId = (parts[0]?.data as { run_id: string }).run_id;
    await expect(collect(alice.runs.joinStream(thread.thread_id, runId, { streamMode: ['tools'] }))).rejects.toThrow(
      /did not record the tools stream mode/,
    );
  });
});
