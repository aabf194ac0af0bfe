import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../agent/agent-runtime.ts';
import { FEEDBACK_BOUNDS } from '../../domain/feedback.ts';
import { startApiTestServer, type ApiTestServer } from '../../testing/api-test-server.ts';
import { feedbackJson, feedbackPageJson } from '../schemas/feedback-json.ts';

type FeedbackJson = z.infer<typeof feedbackJson>;

let api: ApiTestServer;
let carolKey: string;
let alicesRun: { threadId: string; runId: string; answer: string };

/** Asks over the LangGraph API and waits for the answer: the run's thread and id, and the answer text. */
async function ask(key: string, question: string): Promise<{ threadId: string; runId: string; answer: string }> {
  const wait = await api.request('POST', '/runs/wait', { key, json: { assistant_id: 'rag', input: { question } } });
  expect(wait.status, wait.text).toBe(200);
  if (!(wait.json as { answer?: unknown }).answer) throw new Error(wait.text.slice(0, 3000));
  const [, threadId, runId] =
    /^\/threads\/([^/]+)\/runs\/([^/]+)$/.exec(wait.headers.get('content-location') ?? '') ?? [];
  return {
    threadId: threadId as string,
    runId: runId as string,
    answer: (wait.json as { answer: { answer: string } }).answer.answer,
  };
}

const rate = (runId: string, key: string, json: unknown) =>
  api.request('POST', `/v1/runs/${encodeURIComponent(runId)}/feedback`, { key, json });

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  await api.evident.store.upsertUser({ name: 'carol', groups: [], roles: ['admin'] });
  carolKey = (await api.evident.store.createApiKey('carol')).key;
  alicesRun = await ask(api.keys.alice, 'What is the termination fee of CT-2024-0193?');
});
afterAll(async () => api?.close());

describe('POST /v1/runs/{run_id}/feedback', () => {
  it('records the rater’s rating with the answer they saw, replaces it when they rate again, and reads it back', async () => {
    const first = await rate(alicesRun.runId, api.keys.alice, {
      rating: 'down',
      reason: 'incorrect',
      comment: 'Wrong fee.',
      correction: 'The termination fee is EUR 48,000.',
    });
    expect(first.status, first.text).toBe(200);
    const stored = feedbackJson.parse((first.json as { feedback: unknown }).feedback);
    expect(stored).toMatchObject({
      run_id: alicesRun.runId,
      thread_id: alicesRun.threadId,
      agent: 'rag',
      user: 'alice',
      rater: 'alice',
      rating: 'down',
      reason: 'incorrect',
      correction: 'The termination fee is EUR 48,000.',
      question: 'What is the termination fee of CT-2024-0193?',
      answer: alicesRun.answer,
    });
    expect(alicesRun.answer.length).toBeGreaterThan(0);

    const again = await rate(alicesRun.runId, api.keys.alice, { rating: 'up' });
    const replaced = (again.json as { feedback: FeedbackJson }).feedback;
    expect(replaced).toMatchObject({ id: stored.id, rating: 'up', reason: null, correction: null });

    const mine = await api.request('GET', `/v1/runs/${alicesRun.runId}/feedback`, { key: api.keys.alice });
    expect(mine.status).toBe(200);
    expect((mine.json as { feedback: FeedbackJson }).feedback).toMatchObject({ id: stored.id, rating: 'up' });

    // Audited as the rater's action, through the HTTP API.
    const audit = await api.request('GET', `/v1/audit?run_id=${alicesRun.runId}&action=feedback.rate`, {
      key: api.keys.admin,
    });
    const entries = (audit.json as { entries: { actor: string; outcome: string; surface: string }[] }).entries;
    expect(entries.map((e) => [e.actor, e.outcome, e.surface])).toEqual([
      ['alice', 'up', 'http'],
      ['alice', 'down', 'http'],
    ]);
  });

  it("answers bob's rating, reading or withdrawing of alice's run exactly as for a run that does not exist", async () => {
    const missing = await rate('no-such-run', api.keys.bob, { rating: 'down' });
    expect(missing.status).toBe(404);
    for (const response of [
      await rate(alicesRun.runId, api.keys.bob, { rating: 'down', correction: 'anything' }),
      await api.request('GET', `/v1/runs/${alicesRun.runId}/feedback`, { key: api.keys.bob }),
      await api.request('DELETE', `/v1/runs/${alicesRun.runId}/feedback`, { key: api.keys.bob }),
    ]) {
      expect(response.status).toBe(404);
      expect((response.json as { error: { code: string } }).error.code).toBe('not_found');
      // The same words as for a missing run, but the id: nothing tells that the run exists.
      expect(response.text.replace(alicesRun.runId, 'X')).toBe(missing.text.replace('no-such-run', 'X'));
    }
    expect(await api.evident.store.getFeedback(alicesRun.runId, 'bob')).toBeUndefined();
  });

  it('refuses a correction, a comment or a body over its bound, an unknown rating or reason, and a bad run id', async () => {
    const refused = [
      { rating: 'down', correction: 'x'.repeat(FEEDBACK_BOUNDS.maxCorrectionChars + 1) },
      { rating: 'down', comment: 'x'.repeat(FEEDBACK_BOUNDS.maxCommentChars + 1) },
      { rating: 'sideways' },
      { rating: 'down', reason: 'bored' },
      { rating: 'down', extra: true },
      {},
    ];
    for (const body of refused) {
      const response = await rate(alicesRun.runId, api.keys.alice, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((response.json as { error: { code: string } }).error.code).toBe('invalid_input');
    }
    const huge = await api.request('POST', `/v1/runs/${alicesRun.runId}/feedback`, {
      key: api.keys.alice,
      body: JSON.stringify({ rating: 'down', correction: 'x'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    const longId = await rate('r'.repeat(600), api.keys.alice, { rating: 'up' });
    expect(longId.status).toBe(400);
    expect(longId.text.length).toBeLessThan(1000);
    // The stored rating is still the last accepted one.
    expect((await api.evident.store.getFeedback(alicesRun.runId, 'alice'))?.rating).toBe('up');
  });

  it("lets an admin rate a user's run, and refuses once the rater's admin role is gone (read at the moment of rating)", async () => {
    const byCarol = await rate(alicesRun.runId, carolKey, { rating: 'down', reason: 'unsupported' });
    expect(byCarol.status, byCarol.text).toBe(200);
    expect((byCarol.json as { feedback: FeedbackJson }).feedback).toMatchObject({ rater: 'carol', user: 'alice' });

    await api.evident.store.upsertUser({ name: 'carol', groups: [], roles: ['member'] });
    try {
      const refused = await rate(alicesRun.runId, carolKey, { rating: 'up' });
      expect(refused.status).toBe(404);
      expect((await api.evident.store.getFeedback(alicesRun.runId, 'carol'))?.rating).toBe('down');
      expect((await api.request('DELETE', `/v1/runs/${alicesRun.runId}/feedback`, { key: carolKey })).status).toBe(404);
    } finally {
      await api.evident.store.upsertUser({ name: 'carol', groups: [], roles: ['admin'] });
    }
  });

  it('refuses to rate a run that waits for an approval: it has no answer yet (409 run_not_finished)', async () => {
    const wait = await api.request('POST', '/runs/wait', {
      key: api.keys.alice,
      json: { assistant_id: 'rag', input: { question: 'Remember that I prefer answers in bullet points' } },
    });
    const runId = /\/runs\/([^/]+)$/.exec(wait.headers.get('content-location') ?? '')?.[1] as string;
    expect((await api.evident.store.getRun(runId))?.status).toBe('interrupted');
    const refused = await rate(runId, api.keys.alice, { rating: 'down' });
    expect(refused.status).toBe(409);
    expect((refused.json as { error: { code: string; hint: string } }).error).toMatchObject({
      code: 'run_not_finished',
    });
    expect(await api.evident.store.getFeedback(runId, 'alice')).toBeUndefined();
  });

  it('rates the run of an OpenAI-compatible chat completion, named by its x-evident-run-id header', async () => {
    const completion = await api.request('POST', '/v1/chat/completions', {
      key: api.keys.bob,
      json: { model: 'rag', messages: [{ role: 'user', content: 'How many days of paid annual leave are there?' }] },
    });
    expect(completion.status, completion.text).toBe(200);
    const runId = completion.headers.get('x-evident-run-id') as string;
    const rated = await rate(runId, api.keys.bob, { rating: 'up', reason: 'helpful' });
    expect(rated.status, rated.text).toBe(200);
    expect((rated.json as { feedback: FeedbackJson }).feedback).toMatchObject({ run_id: runId, rater: 'bob' });
    expect((await api.request('DELETE', `/v1/runs/${runId}/feedback`, { key: api.keys.bob })).json).toEqual({
      withdrawn: true,
    });
  });

  it('withdraws a rating', async () => {
    const run = await ask(api.keys.bob, 'What is the termination fee of CT-2024-0193?');
    expect((await rate(run.runId, api.keys.bob, { rating: 'up' })).status).toBe(200);
    const withdrawn = await api.request('DELETE', `/v1/runs/${run.runId}/feedback`, { key: api.keys.bob });
    expect(withdrawn.json).toEqual({ withdrawn: true });
    expect((await api.request('DELETE', `/v1/runs/${run.runId}/feedback`, { key: api.keys.bob })).json).toEqual({
      withdrawn: false,
    });
    const mine = await api.request('GET', `/v1/runs/${run.runId}/feedback`, { key: api.keys.bob });
    expect(mine.json).toEqual({ feedback: null });
  });
});

describe('GET /v1/feedback', () => {
  it('is for admins only: 401 without a key, 403 for a member, who learns nothing of the feedback', async () => {
    expect((await api.request('GET', '/v1/feedback')).status).toBe(401);
    for (const key of [api.keys.alice, api.keys.bob]) {
      const refused = await api.request('GET', '/v1/feedback?user=alice', { key });
      expect(refused.status).toBe(403);
      expect((refused.json as { error: { code: string } }).error.code).toBe('forbidden');
      expect(refused.text).not.toMatch(/termination|48,000|incorrect/);
    }
  });

  it('lists, filters and pages everyone’s feedback for an admin; refuses a bad filter', async () => {
    const bobsRun = await ask(api.keys.bob, 'Which contract has the highest termination fee?');
    await rate(bobsRun.runId, api.keys.bob, { rating: 'down', correction: 'CT-2024-0193.' });
    const list = async (query: string) => {
      const response = await api.request('GET', `/v1/feedback${query}`, { key: api.keys.admin });
      expect(response.status, response.text).toBe(200);
      return feedbackPageJson.parse(response.json);
    };
    const all = await list('');
    expect(all.feedback.map((f) => [f.rater, f.run_id])).toEqual([
      ['bob', bobsRun.runId],
      ['carol', alicesRun.runId],
      ['alice', alicesRun.runId],
    ]);
    expect((await list('?user=bob')).feedback).toHaveLength(1);
    expect((await list('?rating=down&agent=rag')).feedback.map((f) => f.rater)).toEqual(['bob', 'carol']);
    expect((await list('?has_correction=true')).feedback.map((f) => f.rater)).toEqual(['bob']);
    expect((await list('?agent=react')).feedback).toEqual([]);
    expect((await list('?until=2000-01-01')).feedback).toEqual([]);

    const page1 = await list('?limit=2');
    expect(page1.feedback).toHaveLength(2);
    expect(page1.next_cursor).not.toBeNull();
    const page2 = await list(`?limit=2&cursor=${page1.next_cursor}`);
    expect(page2.feedback.map((f) => f.rater)).toEqual(['alice']);
    expect(page2.next_cursor).toBeNull();

    for (const bad of ['?limit=1000', '?rating=meh', '?has_correction=maybe', '?since=yesterday', '?nope=1']) {
      const response = await api.request('GET', `/v1/feedback${bad}`, { key: api.keys.admin });
      expect(response.status, bad).toBe(400);
    }
  });
});
