import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';

/**
 * One rule for every identifier a caller chooses (domain/identifier.ts), the same on every route: a thread id of
 * thousands of characters, or one with a control or bidirectional character, is refused before anything runs, so no
 * run answers while its audit record is refused.
 */
let api: ApiTestServer;
beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
});
afterAll(async () => {
  await api?.close();
});

const LONG = 't'.repeat(5_000);
const BIDI = 'thread\u202Etxt.exe';

describe('identifiers chosen by the caller', () => {
  it.each([
    ['a 5,000-character thread id', LONG],
    ['a thread id with a right-to-left override', BIDI],
    ['a thread id with a NUL', 'thread\u0000one'],
  ])('refuse %s with 400 on every route that creates a thread, and run nothing', async (_what, id) => {
    const created = await api.request('POST', '/threads', { key: api.keys.alice, json: { thread_id: id } });
    expect(created.status).toBe(400);
    const run = await api.request('POST', `/threads/${encodeURIComponent(id)}/runs/wait`, {
      key: api.keys.alice,
      json: {
        assistant_id: 'rag',
        if_not_exists: 'create',
        input: { question: 'How many days do I have to submit an expense report?' },
      },
    });
    expect(run.status).toBe(400);
    expect(run.json).toMatchObject({ error: { code: 'invalid_input' } });
    expect(run.text).not.toContain('expense');
    expect(await api.evident.store.getThread(id)).toBeUndefined();
    const audit = await api.evident.store.listAudit({ limit: 50, actor: 'alice' });
    expect(audit.filter((entry) => entry.action === 'ask')).toEqual([]);
  });

  it('takes a thread id of 512 characters, the bound, and records its ask', async () => {
    const id = 'x'.repeat(512);
    const run = await api.request('POST', `/threads/${id}/runs/wait`, {
      key: api.keys.alice,
      json: {
        assistant_id: 'rag',
        if_not_exists: 'create',
        input: { question: 'How many days do I have to submit an expense report?' },
      },
    });
    expect(run.status).toBe(200);
    for (let attempt = 0; attempt < 100; attempt++) {
      const asks = (await api.evident.store.listAudit({ limit: 50, actor: 'alice' })).filter((e) => e.action === 'ask');
      if (asks.some((entry) => entry.threadId === id)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the ask was not recorded');
  });
});
