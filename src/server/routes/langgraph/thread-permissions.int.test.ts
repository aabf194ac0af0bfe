import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';
import { readSse } from '../../../testing/sse-reader.ts';

/** Every thread and run route refuses keys that may not use it, and approvals follow the policy. */
let api: ApiTestServer;
let answered: { threadId: string; runId: string };
let waiting: { threadId: string; runId: string };

const headers = (key?: string) => ({
  'content-type': 'application/json',
  ...(key === undefined ? {} : { 'x-api-key': key }),
});
const call = (method: string, path: string, key?: string, body?: unknown) =>
  fetch(api.url + path, {
    method,
    headers: headers(key),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function finishedRun(key: string, question: string): Promise<{ threadId: string; runId: string }> {
  const thread = (await (await call('POST', '/threads', key, {})).json()) as { thread_id: string };
  const read = await readSse(
    await call('POST', `/threads/${thread.thread_id}/runs/stream`, key, { assistant_id: 'rag', input: { question } }),
  );
  return { threadId: thread.thread_id, runId: (read.events[0]?.data as { run_id: string }).run_id };
}

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  answered = await finishedRun(api.keys.alice, 'What is the termination fee of CT-2024-0193?');
  waiting = await finishedRun(api.keys.alice, 'Remember that I prefer answers in bullet points');
});
afterAll(async () => api?.close());

/** Every route that names one of alice's threads (and one of its runs), with a valid body where it takes one. */
const threadRoutes = (t: string, r: string): [string, string, unknown?][] => [
  ['GET', `/threads/${t}`],
  ['GET', `/threads/${t}/state`],
  ['GET', `/threads/${t}/history`],
  ['POST', `/threads/${t}/history`, {}],
  ['GET', `/threads/${t}/runs`],
  ['POST', `/threads/${t}/runs`, { assistant_id: 'rag', input: { question: 'What else?' } }],
  ['POST', `/threads/${t}/runs/stream`, { assistant_id: 'rag', input: { question: 'What else?' } }],
  ['POST', `/threads/${t}/runs/wait`, { assistant_id: 'rag', input: { question: 'What else?' } }],
  ['GET', `/threads/${t}/runs/${r}`],
  ['GET', `/threads/${t}/runs/${r}/stream`],
  ['GET', `/threads/${t}/runs/${r}/join`],
  ['POST', `/threads/${t}/runs/${r}/cancel`],
  ['DELETE', `/threads/${t}`],
];

describe('thread and run permissions', () => {
  it('answers 401 without a key or with a bad one, on every LangGraph route', async () => {
    const routes: [string, string, unknown?][] = [
      ['POST', '/assistants/search', {}],
      ['GET', '/assistants/rag/graph'],
      ['POST', '/threads', {}],
      ['POST', '/threads/search', {}],
      ['POST', '/runs/wait', { assistant_id: 'rag', input: { question: 'x' } }],
      ...threadRoutes(answered.threadId, answered.runId),
    ];
    for (const [method, path, body] of routes) {
      for (const key of [undefined, 'not-a-key']) {
        const response = await call(method, path, key, body);
        expect([method, path, key, response.status]).toEqual([method, path, key, 401]);
      }
    }
  });

  it("gives another user a plain 404 for every route of alice's thread, and changes nothing", async () => {
    const before = await (await call('GET', `/threads/${answered.threadId}/state`, api.keys.alice)).text();
    for (const [method, path, body] of [
      ...threadRoutes(answered.threadId, answered.runId),
      [
        'POST',
        `/threads/${waiting.threadId}/runs/stream`,
        { assistant_id: 'rag', command: { resume: { decision: 'approve' } } },
      ] as [string, string, unknown],
    ]) {
      const response = await call(method, path, api.keys.bob, body);
      const text = await response.text();
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(text).not.toContain('CT-2024-0193');
    }
    expect(await (await call('GET', `/threads/${answered.threadId}/state`, api.keys.alice)).text()).toBe(before);
    const bobsThreads = (await (await call('POST', '/threads/search', api.keys.bob, {})).json()) as {
      thread_id: string;
    }[];
    expect(bobsThreads.map((t) => t.thread_id)).not.toContain(answered.threadId);
    expect(await api.evident.store.listMemories('alice')).toEqual([]);

    // A run id reached through one of bob's own threads is not found either.
    const bobs = await finishedRun(api.keys.bob, 'How do I authenticate to the orders API?');
    expect((await call('GET', `/threads/${bobs.threadId}/runs/${answered.runId}`, api.keys.bob)).status).toBe(404);
  });

  it('lets an admin read a thread and decide on its pending action, but not ask in it', async () => {
    const admin = api.keys.admin;
    expect((await call('GET', `/threads/${answered.threadId}/state`, admin)).status).toBe(200);
    expect(
      (
        await call('POST', `/threads/${answered.threadId}/runs/wait`, admin, {
          assistant_id: 'rag',
          input: { question: 'x' },
        })
      ).status,
    ).toBe(404);
    const resumed = await readSse(
      await call('POST', `/threads/${waiting.threadId}/runs/stream`, admin, {
        assistant_id: 'rag',
        command: { resume: { decision: 'approve' } },
      }),
    );
    expect(resumed.events.map((e) => e.event)).toEqual(['metadata', 'values', 'values', 'values', 'values', 'end']);
    expect((await api.evident.store.listMemories('alice')).map((m) => m.text)).toEqual([
      'I prefer answers in bullet points',
    ]);
    // The resumed run is the owner's run, in the owner's thread.
    const runs = (await (await call('GET', `/threads/${waiting.threadId}/runs`, api.keys.alice)).json()) as {
      outcome: string;
      question: string;
    }[];
    expect(runs.map((r) => [r.outcome, r.question])).toEqual([
      ['answered', 'approve save_memory'],
      ['interrupted', 'Remember that I prefer answers in bullet points'],
    ]);
  });

  it("answers another user's POST /threads with alice's thread id as for a missing thread (404), creating and changing nothing", async () => {
    const before = await api.evident.store.getThread(answered.threadId);
    const missing = await call('GET', '/threads/never-existed', api.keys.bob);
    for (const if_exists of [undefined, 'raise', 'do_nothing']) {
      const response = await call('POST', '/threads', api.keys.bob, {
        thread_id: answered.threadId,
        metadata: { taken: true },
        ...(if_exists ? { if_exists } : {}),
      });
      const body = (await response.json()) as { error: { code: string; hint: string } };
      expect([if_exists, response.status, body.error.code]).toEqual([if_exists, 404, 'not_found']);
      // The hint a missing thread gets, and a message naming only the id bob sent.
      expect(body.error.hint).toBe(((await missing.clone().json()) as { error: { hint: string } }).error.hint);
    }
    expect(await api.evident.store.getThread(answered.threadId)).toEqual(before);
    // Whoever may read it is told it exists: its owner, and an admin.
    expect((await call('POST', '/threads', api.keys.alice, { thread_id: answered.threadId })).status).toBe(409);
    expect((await call('POST', '/threads', api.keys.admin, { thread_id: answered.threadId })).status).toBe(409);
    const own = await call('POST', '/threads', api.keys.alice, {
      thread_id: answered.threadId,
      if_exists: 'do_nothing',
    });
    expect([own.status, ((await own.json()) as { thread_id: string }).thread_id]).toEqual([200, answered.threadId]);
  });

  it("reads a thread's history, newest first, with a bounded limit", async () => {
    const history = (await (
      await call('GET', `/threads/${answered.threadId}/history?limit=2`, api.keys.alice)
    ).json()) as { next: string[] }[];
    expect(history).toHaveLength(2);
    expect(history[0]?.next).toEqual([]);
    const bad = await call('GET', `/threads/${answered.threadId}/history?limit=zero`, api.keys.alice);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { hint: string } }).error.hint).toMatch(/1 to 1000/);
  });

  it('deletes only the owner’s thread, with its runs and checkpoints', async () => {
    const doomed = await finishedRun(api.keys.alice, 'How many days do customers have to request a refund?');
    expect((await call('DELETE', `/threads/${doomed.threadId}`, api.keys.admin)).status).toBe(404);
    expect((await call('DELETE', `/threads/${doomed.threadId}`, api.keys.alice)).status).toBe(204);
    expect((await call('GET', `/threads/${doomed.threadId}/state`, api.keys.alice)).status).toBe(404);
    expect(await api.evident.store.getRun(doomed.runId)).toBeUndefined();
    const rag = await openAgentRuntime(api.evident);
    try {
      expect(
        (await rag.runs.agent('rag').graph.getState({ configurable: { thread_id: doomed.threadId } })).createdAt,
      ).toBeUndefined();
    } finally {
      await rag.close();
    }
  });
});

describe('approval policy', () => {
  let strict: ApiTestServer;
  beforeAll(async () => {
    strict = await startApiTestServer({
      agents: (evident) =>
        openAgentRuntime(evident, { policy: { default: ['owner', 'admin'], tools: { save_memory: ['admin'] } } }),
    });
  });
  afterAll(async () => strict?.close());

  it('makes saving a memory an admin decision when the policy says so', async () => {
    const send = (method: string, path: string, key: string, body?: unknown) =>
      fetch(strict.url + path, {
        method,
        headers: headers(key),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const thread = (await (await send('POST', '/threads', strict.keys.alice, {})).json()) as { thread_id: string };
    await readSse(
      await send('POST', `/threads/${thread.thread_id}/runs/stream`, strict.keys.alice, {
        assistant_id: 'rag',
        input: { question: 'Remember that my team is legal ops' },
      }),
    );
    const approve = { assistant_id: 'rag', command: { resume: { decision: 'approve' } } };

    const own = await send('POST', `/threads/${thread.thread_id}/runs/stream`, strict.keys.alice, approve);
    expect(own.status).toBe(403);
    expect(((await own.json()) as { error: { message: string } }).error.message).toMatch(
      /Only an admin may decide on save_memory/,
    );
    expect((await send('POST', `/threads/${thread.thread_id}/runs/stream`, strict.keys.bob, approve)).status).toBe(404);
    expect(await strict.evident.store.listMemories('alice')).toEqual([]);

    const edited = await readSse(
      await send('POST', `/threads/${thread.thread_id}/runs/stream`, strict.keys.admin, {
        ...approve,
        command: { resume: { decision: 'edit', args: { text: 'My team is Legal Operations' } } },
      }),
    );
    expect(edited.events.at(-1)?.event).toBe('end');
    expect((await strict.evident.store.listMemories('alice')).map((m) => m.text)).toEqual([
      'My team is Legal Operations',
    ]);
  });
});
