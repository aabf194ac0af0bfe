import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';

/** The official LangGraph SDK, used as its documentation shows, against a running Evident server. */
let api: ApiTestServer;
let alice: Client;

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  alice = new Client({ apiUrl: api.url, apiKey: api.keys.alice });
});
afterAll(async () => api?.close());

interface StreamPart {
  event: string;
  data: unknown;
  id?: string;
}

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('LangGraph SDK against the server', () => {
  it('lists the agents as assistants, with their graphs', async () => {
    const assistants = await alice.assistants.search();
    expect(assistants.map((a) => a.assistant_id)).toContain('rag');
    const graph = await alice.assistants.getGraph('rag');
    const nodes = (graph.nodes as { id: string }[]).map((node) => node.id);
    expect(nodes).toEqual(
      expect.arrayContaining([
        '__start__',
        'load_memory',
        'retrieve',
        'check_answerability',
        'generate',
        'evidence_gate',
        'finalize',
        '__end__',
      ]),
    );
  });

  it('streams a question: steps as custom events, then the answer with citations in the final values', async () => {
    const thread = await alice.threads.create();
    const parts = await collect(
      alice.runs.stream(thread.thread_id, 'rag', {
        input: { messages: [{ role: 'user', content: 'What is the termination fee of contract CT-2024-0193?' }] },
        streamMode: ['values', 'updates', 'custom'],
      }),
    );
    const events = parts.map((part) => part.event);
    expect(events[0]).toBe('metadata');
    expect(events.at(-1)).toBe('end');
    expect(events).not.toContain('error');
    const steps = parts
      .filter((p) => p.event === 'custom')
      .map((p) => (p.data as { event: { node: string } }).event.node);
    expect(steps).toEqual([
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
    const ids = parts.map((p) => Number(p.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);

    const finalValues = parts.filter((p) => p.event === 'values').at(-1)?.data as {
      answer: { answerable: boolean; answer: string; citations: { doc_id: string }[] };
      messages: { type: string; content: string }[];
    };
    expect(finalValues.answer.answerable).toBe(true);
    expect(finalValues.answer.citations.map((c) => c.doc_id)).toContain('contracts/ct-2024-0193.md');
    expect(finalValues.messages.map((m) => m.type)).toEqual(['human', 'ai']);

    const state = await alice.threads.getState(thread.thread_id);
    expect(state.next).toEqual([]);
    expect((state.values as { answer: { answer: string } }).answer.answer).toBe(finalValues.answer.answer);
    const runs = await alice.runs.list(thread.thread_id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'success', assistant_id: 'rag', outcome: 'answered' });
  });

  it('receives the interrupt of a side-effect tool, resumes it, and reads the final state', async () => {
    const thread = await alice.threads.create();
    const first = await collect(
      alice.runs.stream(thread.thread_id, 'rag', {
        input: { messages: [{ role: 'user', content: 'Remember that I prefer answers in bullet points' }] },
        streamMode: 'updates',
      }),
    );
    const interrupt = first.find((p) => p.event === 'updates' && '__interrupt__' in (p.data as object))?.data as {
      __interrupt__: { value: { tool: string; args: { text: string }; approval_id: string } }[];
    };
    expect(interrupt.__interrupt__[0]?.value).toMatchObject({
      tool: 'save_memory',
      args: { text: 'I prefer answers in bullet points' },
    });
    const waiting = await alice.threads.getState(thread.thread_id);
    expect(waiting.next).toEqual(['save_memory']);
    expect((await alice.threads.get(thread.thread_id)).status).toBe('interrupted');
    expect(await api.evident.store.listMemories('alice')).toEqual([]);
    // A new question waits until the pending action is decided.
    await expect(
      alice.runs.wait(thread.thread_id, 'rag', { input: { question: 'What is the refund window?' } }),
    ).rejects.toThrow(/409|waits for a decision/);

    const resumed = await collect(
      alice.runs.stream(thread.thread_id, 'rag', {
        command: { resume: { decision: 'approve' } },
        streamMode: 'values',
      }),
    );
    expect(resumed.map((p) => p.event)).not.toContain('error');
    const state = await alice.threads.getState(thread.thread_id);
    expect(state.next).toEqual([]);
    const memories = await api.evident.store.listMemories('alice');
    expect(memories.map((m) => m.text)).toEqual(['I prefer answers in bullet points']);
    expect((state.values as { tool_calls: { name: string; ok: boolean }[] }).tool_calls).toEqual([
      expect.objectContaining({ name: 'save_memory', ok: true }),
    ]);

    // Resuming again finds nothing to decide on: the side effect ran once.
    await expect(
      collect(alice.runs.stream(thread.thread_id, 'rag', { command: { resume: { decision: 'approve' } } })),
    ).rejects.toThrow(/409|no action waiting/i);
    expect(await api.evident.store.listMemories('alice')).toHaveLength(1);
  });

  it("waits for a run and joins it, and searches only the key owner's threads", async () => {
    const thread = await alice.threads.create({ metadata: { topic: 'refunds' } });
    const values = (await alice.runs.wait(thread.thread_id, 'rag', {
      input: { question: 'How many days do customers have to request a refund?' },
    })) as {
      answer: { answer: string };
    };
    expect(values.answer.answer.length).toBeGreaterThan(0);
    const [run] = await alice.runs.list(thread.thread_id);
    const joined = (await alice.runs.join(thread.thread_id, run?.run_id ?? '')) as { answer: { answer: string } };
    expect(joined.answer.answer).toBe(values.answer.answer);

    const found = await alice.threads.search({ metadata: { topic: 'refunds' } });
    expect(found.map((t) => t.thread_id)).toEqual([thread.thread_id]);
    const bob = new Client({ apiUrl: api.url, apiKey: api.keys.bob });
    expect((await bob.threads.search()).map((t) => t.thread_id)).not.toContain(thread.thread_id);
    await expect(bob.threads.getState(thread.thread_id)).rejects.toThrow(/404/);
  });
});
