import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { RecordingChatModel } from '../../../testing/recording-chat-model.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';

/**
 * Runs are admitted within limits, per user and in all: one more is refused at once with 429 and Retry-After, and
 * a place is free again when a run ends. The chat model holds every run at its first call until the test lets go.
 */
const gates: (() => void)[] = [];
const model = new RecordingChatModel();
let api: ApiTestServer;

beforeAll(async () => {
  api = await startApiTestServer({
    agents: (evident) =>
      openAgentRuntime(evident, {
        chat: { id: 'recording:held', model },
        pollMs: 50,
        limits: { maxConcurrent: 2, maxConcurrentPerUser: 1 },
      }),
  });
  await api.evident.store.upsertUser({ name: 'carol', groups: ['sales'] });
});
afterAll(async () => {
  for (const open of gates.splice(0)) open();
  await api?.close();
});

/** Scripts one model reply that waits until the test opens its gate. */
function heldReply(): void {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  gates.push(open);
  model.push(async () => {
    await gate;
    return { answerable: false, reasons: ['not stated'], missing_information: ['the fee'] };
  });
}

const startRun = (key: string) =>
  api.request('POST', '/runs', {
    key,
    json: { assistant_id: 'rag', input: { question: 'What is the termination fee of CT-2024-0193?' } },
  });

describe('run admission', () => {
  it('refuses a run over the per-user and the overall limit with 429 and Retry-After, and admits again when a run ends', async () => {
    const carolKey = (await api.evident.store.createApiKey('carol')).key;
    heldReply();
    heldReply();
    const first = await startRun(api.keys.alice);
    expect(first.status, first.text).toBe(200);
    const again = await startRun(api.keys.alice);
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(again.json).toMatchObject({
      error: { code: 'too_many_runs', hint: expect.stringContaining('runs.maxConcurrentPerUser') },
    });
    expect((await startRun(api.keys.bob)).status).toBe(200);
    const third = await startRun(carolKey);
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({
      error: { code: 'too_many_runs', hint: expect.stringContaining('runs.maxConcurrent ') },
    });

    for (const open of gates.splice(0)) open();
    const { run_id: runId, thread_id: threadId } = first.json as { run_id: string; thread_id: string };
    expect((await api.request('GET', `/threads/${threadId}/runs/${runId}/join`, { key: api.keys.alice })).status).toBe(
      200,
    );
    // Wait until both held runs have let go of their places.
    for (let tries = 0; tries < 100; tries++) {
      const runs = await Promise.all([api.evident.store.getRun(runId)]);
      if (runs.every((run) => run && run.status !== 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    heldReply();
    const later = await startRun(api.keys.alice);
    expect(later.status, later.text).toBe(200);
    for (const open of gates.splice(0)) open();
  });
});
