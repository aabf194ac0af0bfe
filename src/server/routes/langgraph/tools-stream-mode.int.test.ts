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
 * and end, recorded like every detail mode and replayed through join; and the detail modes across an approval (the
 * graph then runs through LangChain's event stream, and its interrupt and resume must work as they do without it).
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

describe('the detail modes across an approval', () => {
  it('stream the interrupt of a side-effect tool and the resumed run that carries it out', async () => {
    const thread = await alice.threads.create();
    const first = await collect(
      alice.runs.stream(thread.thread_id, 'rag', {
        input: { messages: [{ role: 'user', content: 'Remember that I prefer answers in bullet points' }] },
        streamMode: ['updates', 'events', 'tasks', 'checkpoints'],
      }),
    );
    expect(first.filter((part) => part.event === 'error')).toEqual([]);
    const interrupt = first.find((part) => part.event === 'updates' && '__interrupt__' in (part.data as object));
    expect(interrupt).toBeDefined();
    // The last checkpoint waits for the tool, which started and stopped for the decision.
    const waiting = first.filter((part) => part.event === 'checkpoints').at(-1)?.data as { next: string[] };
    expect(waiting.next).toEqual(['save_memory']);
    const started = first.filter((part) => part.event === 'tasks' && 'input' in (part.data as object));
    expect(started.map((part) => (part.data as { name: string }).name)).toContain('save_memory');
    expect((await alice.threads.get(thread.thread_id)).status).toBe('interrupted');

    const resumed = await collect(
      alice.runs.stream(thread.thread_id, 'rag', {
        command: { resume: { decision: 'approve' } },
        streamMode: ['values', 'events', 'tasks'],
      }),
    );
    expect(resumed.filter((part) => part.event === 'error')).toEqual([]);
    const ran = resumed
      .filter((part) => part.event === 'tasks' && 'result' in (part.data as object))
      .map((part) => (part.data as { name: string }).name);
    expect(ran).toContain('save_memory');
    expect(resumed.at(-1)?.event).toBe('end');
    expect((await api.evident.store.listMemories('alice')).map((memory) => memory.text)).toContain(
      'I prefer answers in bullet points',
    );
  });
});
