import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime, type AgentRuntime } from '../../../agent/agent-runtime.ts';
import { CronScheduler } from '../../../runs/crons/cron-scheduler.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';
import { cronRunRequest } from '../../cron-scheduling.ts';

/**
 * Crons through the official LangGraph SDK against the real server (SQLite): create, search, count, update, delete,
 * isolation between users, the bounds, and ticks that run as the creator as the store has them at each tick.
 */
let api: ApiTestServer;
let runtime: AgentRuntime;
let alice: Client;
let bob: Client;
let admin: Client;

const question = (text: string) => ({ messages: [{ role: 'user', content: text }] });

beforeAll(async () => {
  api = await startApiTestServer({
    // Every-second schedules are legal here; only members of `legal` (alice) may have crons; two crons per user.
    env: { EVIDENT_CRON_MIN_INTERVAL_SECONDS: '1', EVIDENT_CRON_GROUPS: 'legal', EVIDENT_CRON_MAX_PER_USER: '3' },
    agents: async (evident) => {
      runtime = await openAgentRuntime(evident);
      return runtime;
    },
  });
  alice = new Client({ apiUrl: api.url, apiKey: api.keys.alice });
  bob = new Client({ apiUrl: api.url, apiKey: api.keys.bob });
  admin = new Client({ apiUrl: api.url, apiKey: api.keys.admin });
});
afterAll(async () => api?.close());

/** A scheduler over the test's store whose clock the test sets: one poll runs what is due at that instant. */
function schedulerAt(
  requestOf: ConstructorParameters<typeof CronScheduler>[0]['requestOf'] = (cron, principal, threadId) =>
    cronRunRequest(cron, principal, threadId, api.evident.config.limits),
): { scheduler: CronScheduler; pollAt: (time: string) => Promise<void> } {
  let now = new Date();
  const scheduler = new CronScheduler({
    store: api.evident.store,
    runs: runtime.runs,
    config: api.evident.config.crons,
    requestOf,
    now: () => now,
  });
  return {
    scheduler,
    pollAt: async (time) => {
      now = new Date(Date.parse(time) + 100);
      await scheduler.poll();
    },
  };
}

const statusOf = (error: unknown): number | undefined => (error as { status?: number }).status;
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return `${statusOf(error)} ${String(error)}`;
  }
  return 'accepted';
}

describe('crons through the LangGraph SDK', () => {
  it('creates, searches, counts, updates and deletes a cron, each as LangGraph answers', async () => {
    const created = await alice.crons.create('rag', {
      schedule: '0 9 * * 1-5',
      timezone: 'Europe/Paris',
      input: question('What is the termination fee of contract CT-2024-0193?'),
      metadata: { purpose: 'daily-check' },
    });
    expect(created).toMatchObject({
      assistant_id: 'rag',
      thread_id: null,
      user_id: 'alice',
      schedule: '0 9 * * 1-5',
      metadata: { purpose: 'daily-check' },
    });
    expect(created.payload).toMatchObject({ input: question('What is the termination fee of contract CT-2024-0193?') });
    // 09:00 in Paris is 07:00 or 08:00 UTC, a weekday.
    const next = new Date(created.next_run_date);
    expect([7, 8]).toContain(next.getUTCHours());
    expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());

    const thread = await alice.threads.create();
    const onThread = await alice.crons.createForThread(thread.thread_id, 'rag', {
      schedule: '*/5 * * * *',
      input: question('Any new contracts?'),
    });
    expect(onThread.thread_id).toBe(thread.thread_id);

    const found = await alice.crons.search({ sortBy: 'created_at', sortOrder: 'asc' });
    expect(found.map((cron) => cron.cron_id)).toEqual([created.cron_id, onThread.cron_id]);
    expect((await alice.crons.search({ threadId: thread.thread_id })).map((cron) => cron.cron_id)).toEqual([
      onThread.cron_id,
    ]);
    expect((await alice.crons.search({ metadata: { purpose: 'daily-check' } })).map((cron) => cron.cron_id)).toEqual([
      created.cron_id,
    ]);
    const selected = await alice.crons.search({ select: ['cron_id', 'schedule'], threadId: thread.thread_id });
    expect(selected).toEqual([{ cron_id: onThread.cron_id, schedule: '*/5 * * * *' }]);
    expect(await alice.crons.count()).toBe(2);
    expect(await alice.crons.count({ assistantId: 'rag', threadId: thread.thread_id })).toBe(1);

    const updated = await alice.crons.update(created.cron_id, {
      schedule: '30 18 * * *',
      timezone: 'UTC',
      enabled: false,
    });
    expect(updated).toMatchObject({ schedule: '30 18 * * *', timezone: 'UTC', enabled: false });
    expect(new Date(updated.next_run_date ?? '').getUTCHours()).toBe(18);
    expect(await alice.crons.search({ enabled: false })).toHaveLength(1);

    await alice.crons.delete(created.cron_id);
    await alice.crons.delete(onThread.cron_id);
    expect(await alice.crons.search()).toEqual([]);
    expect(await refusal(alice.crons.delete(created.cron_id))).toMatch(/^404/);
  });

  it("keeps users apart: bob can neither see, change, delete nor schedule on alice's crons and threads", async () => {
    const thread = await alice.threads.create();
    const cron = await alice.crons.createForThread(thread.thread_id, 'rag', {
      schedule: '0 * * * *',
      input: question('Hourly summary'),
    });
    // bob may not have crons at all here (crons.groups is legal); the admin key is no stored user.
    expect(await refusal(bob.crons.create('rag', { schedule: '0 * * * *', input: question('x') }))).toMatch(
      /^400 .*may not create crons: only members of legal/,
    );
    expect(await refusal(admin.crons.create('rag', { schedule: '0 * * * *', input: question('x') }))).toMatch(
      /^400 .*stored user/,
    );

    expect(await bob.crons.search()).toEqual([]);
    expect(await bob.crons.count()).toBe(0);
    expect(await refusal(bob.crons.update(cron.cron_id, { enabled: false }))).toMatch(/^404/);
    expect(await refusal(bob.crons.delete(cron.cron_id))).toMatch(/^404/);
    const history = await api.request('GET', `/v1/crons/${cron.cron_id}/runs`, { key: api.keys.bob });
    expect(history.status).toBe(404);
    expect(history.text).not.toContain('Hourly summary');
    // Even bob's own key cannot point a cron at alice's thread (it would run in her conversation).
    await api.evident.store.upsertUser({ name: 'bob', groups: ['engineering', 'legal'] });
    try {
      expect(
        await refusal(
          bob.crons.createForThread(thread.thread_id, 'rag', { schedule: '0 * * * *', input: question('x') }),
        ),
      ).toMatch(/^404/);
    } finally {
      await api.evident.store.upsertUser({ name: 'bob', groups: ['engineering'] });
    }

    // Admins list every user's crons; they still cannot change or delete someone else's.
    expect((await admin.crons.search()).map((c) => c.cron_id)).toContain(cron.cron_id);
    expect(await admin.crons.count()).toBeGreaterThanOrEqual(1);
    expect(await refusal(admin.crons.delete(cron.cron_id))).toMatch(/^404/);
    expect((await alice.crons.search()).map((c) => c.cron_id)).toEqual([cron.cron_id]);
    await alice.crons.delete(cron.cron_id);
  });

  it('bounds schedules, payloads and the number of crons, each refusal saying what to do', async () => {
    const input = question('What changed?');
    expect(await refusal(alice.crons.create('rag', { schedule: '*/30 * * * * *', input }))).toMatch(/^201|accepted/);
    for (const cron of await alice.crons.search()) await alice.crons.delete(cron.cron_id);
    expect(await refusal(alice.crons.create('rag', { schedule: 'every day', input }))).toMatch(/^400 .*schedule/);
    expect(await refusal(alice.crons.create('rag', { schedule: '0 9 * * *', timezone: 'Mars/Base', input }))).toMatch(
      /^400 .*time zone/,
    );
    expect(await refusal(alice.crons.create('rag', { schedule: '0 9 * * *', endTime: 'soon', input }))).toMatch(
      /^400 .*end_time/,
    );
    expect(await refusal(alice.crons.create('nope', { schedule: '0 9 * * *', input }))).toMatch(/^404/);
    expect(await refusal(alice.crons.create('rag', { schedule: '0 9 * * *' }))).toMatch(/^400 .*input/);
    expect(
      await refusal(alice.crons.create('rag', { schedule: '0 9 * * *', command: { resume: { decision: 'approve' } } })),
    ).toMatch(/^400/);
    const big = question('x'.repeat(20_000));
    expect(await refusal(alice.crons.create('rag', { schedule: '0 9 * * *', input: big }))).toMatch(
      /^400 .*bytes, more than the 16384/,
    );
    for (let i = 0; i < 3; i++) await alice.crons.create('rag', { schedule: '0 9 * * *', input });
    expect(await refusal(alice.crons.create('rag', { schedule: '0 9 * * *', input }))).toMatch(
      /^400 .*already has 3 crons/,
    );
    for (const cron of await alice.crons.search()) await alice.crons.delete(cron.cron_id);
  });

  it('refuses every-second schedules unless the operator allows them', async () => {
    const strict = await startApiTestServer({ corpus: false, agents: (evident) => openAgentRuntime(evident) });
    try {
      const client = new Client({ apiUrl: strict.url, apiKey: strict.keys.alice });
      expect(await refusal(client.crons.create('rag', { schedule: '* * * * * *', input: question('x') }))).toMatch(
        /^400 .*1 s apart; this server runs crons at most every 60 s/,
      );
      expect(await refusal(client.crons.create('rag', { schedule: '* * * * *', input: question('x') }))).toBe(
        'accepted',
      );
    } finally {
      await strict.close();
    }
  });

  it('runs each tick as the creator as the store has them then: a revoked group skips the next tick, and says why', async () => {
    const cron = await alice.crons.create('rag', {
      schedule: '* * * * * *',
      input: question('What is the termination fee of contract CT-2024-0193?'),
    });
    const { scheduler, pollAt } = schedulerAt();
    try {
      const first = cron.next_run_date as string;
      await pollAt(first);
      const firstHistory = await api.request('GET', `/v1/crons/${cron.cron_id}/runs`, { key: api.keys.alice });
      const [started] = (
        firstHistory.json as { ticks: { status: string; run_id: string; thread_id: string; tick_at: string }[] }
      ).ticks;
      expect(started).toMatchObject({ status: 'started', tick_at: new Date(first).toISOString() });
      const run = await alice.runs.join(started?.thread_id as string, started?.run_id as string);
      expect(JSON.stringify(run)).toContain('termination');
      expect((await alice.runs.get(started?.thread_id as string, started?.run_id as string)).status).toBe('success');

      // alice leaves `legal`, the group crons need here: her cron's next tick runs nothing.
      await api.evident.store.upsertUser({ name: 'alice', groups: [] });
      const second = (await api.evident.store.getCron(cron.cron_id))?.nextRunAt as string;
      expect(Date.parse(second)).toBeGreaterThan(Date.parse(first));
      await pollAt(second);
      const history = await api.request('GET', `/v1/crons/${cron.cron_id}/runs`, { key: api.keys.alice });
      expect(history.status).toBe(200);
      const ticks = (history.json as { ticks: { status: string; reason: string | null; run_id: string | null }[] })
        .ticks;
      expect(ticks.map((tick) => tick.status)).toEqual(['skipped', 'started']);
      expect(ticks[0]?.reason).toMatch(/^owner_not_allowed: only members of legal may run crons/);
      expect(ticks[0]?.run_id).toBeNull();
      // No longer allowed crons, she may still switch hers off, but not change what or when it runs.
      expect(await refusal(alice.crons.update(cron.cron_id, { schedule: '0 * * * *' }))).toMatch(
        /^400 .*may not create crons/,
      );
      expect((await alice.crons.update(cron.cron_id, { enabled: false })).enabled).toBe(false);
      // Nothing ran: alice's threads hold the first tick's run only.
      const threads = await api.evident.store.listThreads('alice');
      expect(threads.filter((t) => t.lastQuestion.includes('termination fee'))).toHaveLength(1);
    } finally {
      await api.evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
      await scheduler.stop();
      await alice.crons.delete(cron.cron_id);
    }
  });

  it("deletes a stateless tick's thread once its run has ended, with on_run_completed: delete", async () => {
    const cron = await alice.crons.create('rag', {
      schedule: '* * * * * *',
      input: question('What is the termination fee of contract CT-2024-0193?'),
      onRunCompleted: 'delete',
    });
    expect(cron).toMatchObject({ on_run_completed: 'delete' });
    const { scheduler, pollAt } = schedulerAt();
    try {
      await pollAt(cron.next_run_date as string);
      const [tick] = await api.evident.store.listCronTicks(cron.cron_id, 1);
      expect(tick?.status).toBe('started');
      const threadId = tick?.threadId as string;
      await runtime.runs.wait(tick?.runId as string, new AbortController().signal);
      // The scheduler deletes the thread right after the run's end; its history keeps the ids.
      for (let i = 0; i < 50 && (await api.evident.store.getThread(threadId)); i++)
        await new Promise((done) => setTimeout(done, 100));
      expect(await api.evident.store.getThread(threadId)).toBeUndefined();
      expect((await api.evident.store.listCronTicks(cron.cron_id, 1))[0]).toMatchObject({
        runId: tick?.runId,
        threadId,
      });
    } finally {
      await scheduler.stop();
      await alice.crons.delete(cron.cron_id);
    }
  });

  it("skips a tick the run engine refuses for its thread, with the engine's reason", async () => {
    const thread = await alice.threads.create();
    // The thread waits for a decision on saving a memory: a new question is refused until someone decides.
    await alice.runs.wait(thread.thread_id, 'rag', {
      input: question('Remember that I prefer answers in bullet points'),
    });
    expect((await alice.threads.getState(thread.thread_id)).next).toEqual(['save_memory']);
    const cron = await alice.crons.createForThread(thread.thread_id, 'rag', {
      schedule: '* * * * * *',
      input: question('Who signed contract CT-2024-0193?'),
    });
    const { scheduler, pollAt } = schedulerAt();
    try {
      await pollAt(cron.next_run_date as string);
      const [tick] = await api.evident.store.listCronTicks(cron.cron_id, 1);
      expect(tick).toMatchObject({ status: 'skipped', threadId: thread.thread_id });
      expect(tick?.reason).toMatch(/^thread_interrupted: .*save_memory/);
      expect(await alice.runs.list(thread.thread_id)).toHaveLength(1);
    } finally {
      await scheduler.stop();
      await alice.crons.delete(cron.cron_id);
    }
  });

  it('records a tick that failed inside the server as failed, without the internal error in its history', async () => {
    const cron = await alice.crons.create('rag', { schedule: '* * * * * *', input: question('x') });
    const { scheduler, pollAt } = schedulerAt(() => {
      throw new Error('connection to 10.0.0.7:5432 refused');
    });
    try {
      await pollAt(cron.next_run_date as string);
      const [tick] = await api.evident.store.listCronTicks(cron.cron_id, 1);
      expect(tick).toMatchObject({ status: 'failed' });
      expect(tick?.reason).toBe("internal: the run could not be started; the server's log says why");
      // The cron goes on: the next tick is due as scheduled.
      expect(Date.parse((await api.evident.store.getCron(cron.cron_id))?.nextRunAt ?? '')).toBeGreaterThan(
        Date.parse(cron.next_run_date as string),
      );
    } finally {
      await scheduler.stop();
      await alice.crons.delete(cron.cron_id);
    }
  });

  it("skips a thread cron's tick once its thread is gone, and claims each tick once among schedulers", async () => {
    const thread = await alice.threads.create();
    const cron = await alice.crons.createForThread(thread.thread_id, 'rag', {
      schedule: '* * * * * *',
      input: question('Who signed contract CT-2024-0193?'),
    });
    const a = schedulerAt();
    const b = schedulerAt();
    try {
      const first = cron.next_run_date as string;
      // Two schedulers see the same due tick at the same instant: one runs it.
      await Promise.all([a.pollAt(first), b.pollAt(first)]);
      const ticks = await api.evident.store.listCronTicks(cron.cron_id, 10);
      expect(ticks).toHaveLength(1);
      expect(ticks[0]).toMatchObject({ status: 'started', threadId: thread.thread_id });
      await alice.runs.join(thread.thread_id, ticks[0]?.runId as string);
      expect(await alice.runs.list(thread.thread_id)).toHaveLength(1);

      await alice.threads.delete(thread.thread_id);
      const second = (await api.evident.store.getCron(cron.cron_id))?.nextRunAt as string;
      await a.pollAt(second);
      const [skipped] = await api.evident.store.listCronTicks(cron.cron_id, 1);
      expect(skipped).toMatchObject({ status: 'skipped' });
      expect(skipped?.reason).toMatch(/^thread_not_found/);
    } finally {
      await a.scheduler.stop();
      await b.scheduler.stop();
      await alice.crons.delete(cron.cron_id);
    }
  });
});
