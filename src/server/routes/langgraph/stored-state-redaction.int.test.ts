import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { WITHHELD_TEXT } from '../../../runs/redact-for-reader.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';
import { readSse } from '../../../testing/sse-reader.ts';

/**
 * Stored runs are read with today's permissions: after a user loses a group, or a document is deleted, the thread's
 * state, history and run events withhold what came from it (saying that something was withheld, not what it said).
 */
let api: ApiTestServer;
const QUESTION = 'What is the termination fee of CT-2024-0193?';
const RESTRICTED = ['48,000', 'Northwind', 'contracts/ct-2024-0193.md'];

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
});
afterAll(async () => api?.close());

async function answeredThread(agent: string): Promise<{ threadId: string; runId: string }> {
  const thread = (await api.request('POST', '/threads', { key: api.keys.alice, json: {} })).json as {
    thread_id: string;
  };
  const read = await readSse(
    await fetch(`${api.url}/threads/${thread.thread_id}/runs/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.keys.alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        assistant_id: agent,
        input: { question: QUESTION },
        stream_mode: ['values', 'updates', 'custom'],
      }),
    }),
  );
  return { threadId: thread.thread_id, runId: (read.events[0]?.data as { run_id: string }).run_id };
}

/** Everything a reader can read of a thread: its state, its history, and its first run's events replayed. */
async function everythingOf(threadId: string, runId: string): Promise<string> {
  const state = await api.request('GET', `/threads/${threadId}/state`, { key: api.keys.alice });
  const history = await api.request('GET', `/threads/${threadId}/history?limit=1000`, { key: api.keys.alice });
  const replay = await readSse(
    await fetch(`${api.url}/threads/${threadId}/runs/${runId}/stream`, {
      headers: { authorization: `Bearer ${api.keys.alice}` },
    }),
  );
  expect([state.status, history.status]).toEqual([200, 200]);
  return [state.text, history.text, JSON.stringify(replay.events)].join('\n');
}

describe.each(['rag', 'react', 'controllable'])('%s: reading a stored run with the permissions of today', (agent) => {
  it('withholds what came from a document the reader lost access to, and shows it again when access returns', async () => {
    const { threadId, runId } = await answeredThread(agent);
    const before = await everythingOf(threadId, runId);
    for (const text of RESTRICTED) expect(before).toContain(text);

    await api.evident.store.upsertUser({ name: 'alice', groups: ['sales'] });
    try {
      const after = await everythingOf(threadId, runId);
      for (const text of RESTRICTED) expect(after).not.toContain(text);
      expect(after).toContain(WITHHELD_TEXT);
      const state = (await api.request('GET', `/threads/${threadId}/state`, { key: api.keys.alice })).json as {
        values: { withheld?: number };
      };
      expect(state.values.withheld).toBeGreaterThan(0);
      // The next question on the thread does not carry the withheld answer into the run either.
      const next = await api.request('POST', `/threads/${threadId}/runs/wait`, {
        key: api.keys.alice,
        json: { assistant_id: agent, input: { question: 'And what is its pricing?' } },
      });
      expect(next.status, next.text).toBe(200);
      for (const text of RESTRICTED) expect(next.text).not.toContain(text);
    } finally {
      await api.evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
    }
    // The record itself was kept: with the group back, the answer reads as it was.
    expect(await everythingOf(threadId, runId)).toContain('48,000');
  });
});

describe('a deleted document', () => {
  it('is withheld from every stored run that used it, for its owner and for an admin', async () => {
    const { threadId, runId } = await answeredThread('rag');
    const deleted = await api.request('DELETE', `/v1/documents/${encodeURIComponent('contracts/ct-2024-0193.md')}`, {
      key: api.keys.admin,
    });
    expect(deleted.status).toBeLessThan(300);
    const after = await everythingOf(threadId, runId);
    for (const text of RESTRICTED) expect(after).not.toContain(text);
    const asAdmin = await api.request('GET', `/threads/${threadId}/state`, { key: api.keys.admin });
    expect(asAdmin.status).toBe(200);
    for (const text of RESTRICTED) expect(asAdmin.text).not.toContain(text);
  });
});
