import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';
import { runCli } from '../../../testing/run-cli.ts';

/**
 * Every agent gets the same run engine through the LangGraph API: checkpoints (history), a fork from the end of a
 * run, a replay from mid-run, approvals; and a question asked through `evident ask` leaves the same trace as the
 * same question asked over HTTP.
 */
let api: ApiTestServer;

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
});
afterAll(async () => api?.close());

const AGENTS = ['rag', 'react', 'controllable'] as const;
const QUESTION = 'What is the termination fee of CT-2024-0193?';

interface Values {
  question: string;
  status: string;
  run_id: string;
  answer: { answer: string; citations: { chunk_id: string }[] } | null;
  evidence: { chunk_id: string }[];
  steps: { node: string }[];
  tool_calls: { name: string; arguments: unknown; ok: boolean }[];
  standalone_question: string;
  __interrupt__?: { value: { tool: string } }[];
}
interface HistoryState {
  next: string[];
  checkpoint: { checkpoint_id: string };
  parent_checkpoint: { checkpoint_id: string } | null;
  values: Partial<Values>;
}

async function newThread(key: string): Promise<string> {
  return ((await api.request('POST', '/threads', { key, json: {} })).json as { thread_id: string }).thread_id;
}
const wait = (key: string, threadId: string, body: Record<string, unknown>) =>
  api.request('POST', `/threads/${threadId}/runs/wait`, { key, json: body });
const history = async (key: string, threadId: string) =>
  (await api.request('GET', `/threads/${threadId}/history?limit=1000`, { key })).json as HistoryState[];

describe.each(AGENTS)('%s over the LangGraph API', (agent) => {
  let threadId: string;
  let first: Values;

  beforeAll(async () => {
    threadId = await newThread(api.keys.alice);
    const response = await wait(api.keys.alice, threadId, { assistant_id: agent, input: { question: QUESTION } });
    expect(response.status, response.text).toBe(200);
    first = response.json as Values;
  });

  it('lists the checkpoints of its thread, the end of the run last', async () => {
    const states = await history(api.keys.alice, threadId);
    expect(states.length).toBeGreaterThan(3);
    // Newest first, as LangGraph lists them: the newest is the end of the run.
    expect(states[0]?.next).toEqual([]);
    expect(states.some((state) => state.next.length > 0)).toBe(true);
  });

  it('forks a new question from the end of the run; the old branch stays', async () => {
    const before = await history(api.keys.alice, threadId);
    const end = before[0]?.checkpoint.checkpoint_id;
    const forked = await wait(api.keys.alice, threadId, {
      assistant_id: agent,
      input: { question: 'What is the pricing of CT-2024-0193?' },
      checkpoint_id: end,
    });
    expect(forked.status, forked.text).toBe(200);
    const values = forked.json as Values;
    expect(values.question).toBe('What is the pricing of CT-2024-0193?');
    expect(['answered', 'refused']).toContain(values.status);
    const after = await history(api.keys.alice, threadId);
    const ids = new Set(after.map((state) => state.checkpoint.checkpoint_id));
    for (const state of before) expect(ids.has(state.checkpoint.checkpoint_id)).toBe(true);
    // The new branch starts at the checkpoint forked from.
    const added = after.filter(
      (state) => !before.some((old) => old.checkpoint.checkpoint_id === state.checkpoint.checkpoint_id),
    );
    expect(added.length).toBeGreaterThan(0);
    expect(added.some((state) => state.parent_checkpoint?.checkpoint_id === end)).toBe(true);
  });

  it('replays from a checkpoint in the middle of the run to the same outcome', async () => {
    const states = await history(api.keys.alice, threadId);
    const mid = states.find(
      (state) => state.next.length > 0 && state.values.question === QUESTION && state.values.status === 'running',
    );
    expect(mid).toBeDefined();
    const replayed = await wait(api.keys.alice, threadId, {
      assistant_id: agent,
      input: null,
      checkpoint_id: mid?.checkpoint.checkpoint_id,
    });
    expect(replayed.status, replayed.text).toBe(200);
    const values = replayed.json as Values;
    expect(values.question).toBe(QUESTION);
    expect(values.status).toBe(first.status);
    expect(values.answer?.answer).toBe(first.answer?.answer);
  });

  it('refuses a fork it cannot make, and shows nothing of the thread to another user', async () => {
    const states = await history(api.keys.alice, threadId);
    const mid = states.find((state) => state.next.length > 0);
    const midFork = await wait(api.keys.alice, threadId, {
      assistant_id: agent,
      input: { question: 'Why?' },
      checkpoint_id: mid?.checkpoint.checkpoint_id,
    });
    expect(midFork.status).toBe(400);
    expect(midFork.json).toMatchObject({ error: { code: 'invalid_input' } });
    const unknown = await wait(api.keys.alice, threadId, {
      assistant_id: agent,
      input: { question: 'Why?' },
      checkpoint_id: 'no-such-checkpoint',
    });
    expect(unknown.status).toBe(404);
    const bob = await wait(api.keys.bob, threadId, {
      assistant_id: agent,
      input: { question: 'Why?' },
      checkpoint_id: states[0]?.checkpoint.checkpoint_id,
    });
    expect(bob.status).toBe(404);
    expect(bob.text).not.toContain('48,000');
    expect((await api.request('GET', `/threads/${threadId}/history`, { key: api.keys.bob })).status).toBe(404);
  });

  it('waits for an approval before saving a memory, and saves it once when approved', async () => {
    const text = `I prefer ${agent} answers as tables`;
    const thread = await newThread(api.keys.alice);
    const asked = (
      await wait(api.keys.alice, thread, {
        assistant_id: agent,
        input: { question: `Remember that ${text.toLowerCase()}` },
      })
    ).json as Values;
    expect(asked.__interrupt__?.[0]?.value).toMatchObject({ tool: 'save_memory' });
    const memories = async () =>
      (
        (await api.request('GET', '/v1/memories', { key: api.keys.alice })).json as { memories: { text: string }[] }
      ).memories.map((memory) => memory.text);
    expect((await memories()).some((memory) => memory.toLowerCase().includes(`${agent} answers as tables`))).toBe(
      false,
    );
    const bob = await wait(api.keys.bob, thread, { assistant_id: agent, command: { resume: { decision: 'approve' } } });
    expect(bob.status).toBe(404);
    const approved = await wait(api.keys.alice, thread, {
      assistant_id: agent,
      command: { resume: { decision: 'approve' } },
    });
    expect(approved.status, approved.text).toBe(200);
    expect((approved.json as Values).tool_calls.filter((call) => call.name === 'save_memory' && call.ok)).toHaveLength(
      1,
    );
    expect(
      (await memories()).filter((memory) => memory.toLowerCase().includes(`${agent} answers as tables`)),
    ).toHaveLength(1);
  });
});

describe('one run engine: the CLI and the API run a question the same way', () => {
  it.each(AGENTS)('%s: evident ask --json and POST /threads/<id>/runs/wait leave the same trace', async (agent) => {
    const viaApi = (
      await wait(api.keys.alice, await newThread(api.keys.alice), {
        assistant_id: agent,
        input: { question: QUESTION },
      })
    ).json as Values;
    const cli = await runCli([
      '--db',
      api.evident.store.location,
      'ask',
      QUESTION,
      '--agent',
      agent,
      '--as',
      'alice',
      '--json',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const viaCli = JSON.parse(cli.stdout) as {
      status: string;
      answer: string;
      citations: unknown[];
      evidence_ids: string[];
      steps: { node: string }[];
      tool_calls: Values['tool_calls'];
      standalone_question: string;
    };
    expect(viaCli.status).toBe(viaApi.status);
    expect(viaCli.answer).toBe(viaApi.answer?.answer);
    expect(viaCli.citations).toEqual(viaApi.answer?.citations);
    expect(viaCli.evidence_ids).toEqual(viaApi.evidence.map((item) => item.chunk_id));
    expect(viaCli.steps.map((step) => step.node)).toEqual(viaApi.steps.map((step) => step.node));
    expect(viaCli.standalone_question).toBe(viaApi.standalone_question);
    const calls = (list: Values['tool_calls']) => list.map(({ name, arguments: args, ok }) => ({ name, args, ok }));
    expect(calls(viaCli.tool_calls)).toEqual(calls(viaApi.tool_calls));
  });
});
