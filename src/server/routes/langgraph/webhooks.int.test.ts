import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { verifyWebhookSignature, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from 'evident';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WITHHELD_TEXT } from '../../../runs/redact-for-reader.ts';
import { openSqliteStore } from '../../../store/sqlite/store.ts';
import { startApiTestServer } from '../../../testing/api-test-server.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../../testing/sample-corpus-store.ts';
import { startServeProcess } from '../../../testing/serve-process.ts';

const SECRET = 'webhook-test-secret-0123456789abcdef-0123456789';
const ADMIN_KEY = 'webhook-test-admin-key-0123456789';
const QUESTION = 'What is the termination fee of contract CT-2024-0193?';

interface Delivery {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook receiver on 127.0.0.1: records each POST and answers it with the next of `answers` (then 200). */
class Receiver {
  readonly deliveries: Delivery[] = [];
  private readonly waiters: (() => void)[] = [];
  private server: Server | undefined;
  port = 0;

  constructor(private readonly answers: ((response: ServerResponse) => void)[] = []) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        this.deliveries.push({ headers: request.headers, body });
        const answer = this.answers[this.deliveries.length - 1];
        if (answer) answer(response);
        else response.end('ok');
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/evident`;
  }

  /** Resolves once `count` deliveries have arrived. */
  async received(count: number, timeoutMs = 20_000): Promise<Delivery[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.deliveries.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${this.deliveries.length}`);
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, 200);
      });
    }
    return this.deliveries.slice(0, count);
  }

  close(): Promise<void> {
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  (response: ServerResponse) => {
    response.writeHead(code, headers);
    response.end();
  };

const verified = (delivery: Delivery): boolean =>
  verifyWebhookSignature({
    secret: SECRET,
    body: delivery.body,
    signature: delivery.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string,
  });

interface WebhookState {
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  event_id: string;
}

let corpus: SampleCorpusStore;
let aliceKey = '';
let bobKey = '';
const servers: ChildProcess[] = [];
const receivers: Receiver[] = [];

/** `evident serve` over the sample corpus's SQLite file with this `webhooks` config. */
async function serve(name: string, webhooks: Record<string, unknown>): Promise<string> {
  const config = join(corpus.dir, `${name}.config.json`);
  await writeFile(config, JSON.stringify({ webhooks, runs: { heartbeatMs: 250, leaseMs: 2_000 } }));
  const { url, child } = await startServeProcess(['--db', corpus.db, '--config', config], {
    ...process.env,
    EVIDENT_ADMIN_KEY: ADMIN_KEY,
  });
  servers.push(child);
  return url;
}

const receiver = async (answers: ((response: ServerResponse) => void)[] = []) => {
  const started = await new Receiver(answers).start();
  receivers.push(started);
  return started;
};

beforeAll(async () => {
  corpus = await openSampleCorpusStore([
    { name: 'alice', groups: ['legal'] },
    { name: 'bob', groups: ['legal'] },
  ]);
  aliceKey = (await corpus.evident.store.createApiKey('alice')).key;
  bobKey = (await corpus.evident.store.createApiKey('bob')).key;
  await corpus.evident.close();
});
afterAll(async () => {
  for (const server of servers) server.kill('SIGTERM');
  await Promise.all(
    servers.map((server) => new Promise((done) => (server.exitCode === null ? server.once('exit', done) : done(null)))),
  );
  await Promise.all(receivers.map((r) => r.close()));
  await corpus?.close();
});

describe('webhooks to a receiver on this machine (allowPrivateTargets)', () => {
  let api = '';
  let alice: Client;
  const webhookOf = async (runId: string, key = aliceKey): Promise<{ status: number; json: WebhookState }> => {
    const response = await fetch(`${api}/v1/runs/${runId}/webhook`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, json: (await response.json()) as WebhookState };
  };
  /** The webhook's state once it is no longer pending. */
  const settled = async (runId: string): Promise<WebhookState> => {
    for (let i = 0; i < 100; i += 1) {
      const { json } = await webhookOf(runId);
      if (json.state !== 'pending') return json;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error('the webhook stayed pending');
  };

  beforeAll(async () => {
    api = await serve('private', {
      secret: SECRET,
      allowedHosts: ['127.0.0.1'],
      allowHttp: true,
      allowPrivateTargets: true,
      maxAttempts: 3,
      initialBackoffMs: 100,
      maxBackoffMs: 1_500,
      timeoutMs: 3_000,
    });
    alice = new Client({ apiUrl: api, apiKey: aliceKey });
  });

  it('POSTs the ended run, signed, with its final values, to the URL runs.create named', async () => {
    const hook = await receiver();
    const thread = await alice.threads.create();
    const run = await alice.runs.create(thread.thread_id, 'rag', {
      input: { messages: [{ role: 'user', content: QUESTION }] },
      webhook: hook.url,
    });
    const joined = (await alice.runs.join(thread.thread_id, run.run_id)) as { answer: unknown };
    const [delivery] = (await hook.received(1)) as [Delivery];
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(verified(delivery)).toBe(true);
    // A changed body no longer verifies.
    expect(
      verifyWebhookSignature({
        secret: SECRET,
        body: `${delivery.body} `,
        signature: delivery.headers['x-evident-signature'] as string,
      }),
    ).toBe(false);
    const payload = JSON.parse(delivery.body) as Record<string, unknown> & { values: { answer: unknown } };
    expect(payload).toMatchObject({
      event: 'run.ended',
      run_id: run.run_id,
      thread_id: thread.thread_id,
      assistant_id: 'rag',
      status: 'success',
      outcome: 'answered',
      question: QUESTION,
    });
    expect(payload.values.answer).toEqual(joined.answer);
    expect(JSON.stringify(payload.values.answer)).toMatch(/CT-2024-0193/i);
    expect(delivery.headers[WEBHOOK_EVENT_ID_HEADER.toLowerCase()]).toBe(payload.event_id);
    expect(delivery.headers['x-evident-attempt']).toBe('1');

    const state = await settled(run.run_id);
    expect(state).toMatchObject({ state: 'delivered', attempts: 1, last_status: 200, event_id: payload.event_id });
    // Bob (same group, another user) may not read alice's run: its webhook is not found for him.
    expect((await webhookOf(run.run_id, bobKey)).status).toBe(404);
    // The audit log has the delivery.
    const audit = await fetch(`${api}/v1/audit?action=webhook.delivery&run_id=${run.run_id}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    const entries = ((await audit.json()) as { entries: Record<string, unknown>[] }).entries;
    expect(entries).toEqual([
      expect.objectContaining({ action: 'webhook.delivery', actor: 'alice', outcome: 'delivered', run_id: run.run_id }),
    ]);
  });

  it('retries a 500 with backoff: the second attempt delivers, with the same event id and a fresh signature', async () => {
    const hook = await receiver([status(500)]);
    const thread = await alice.threads.create();
    const values = (await alice.runs.wait(thread.thread_id, 'rag', {
      input: { messages: [{ role: 'user', content: QUESTION }] },
      webhook: hook.url,
    })) as { answer: unknown };
    const [first, second] = (await hook.received(2)) as [Delivery, Delivery];
    expect(verified(first)).toBe(true);
    expect(verified(second)).toBe(true);
    expect(second.headers['x-evident-event-id']).toBe(first.headers['x-evident-event-id']);
    expect([first.headers['x-evident-attempt'], second.headers['x-evident-attempt']]).toEqual(['1', '2']);
    const runId = (JSON.parse(second.body) as { run_id: string; values: { answer: unknown } }).run_id;
    expect((JSON.parse(second.body) as { values: { answer: unknown } }).values.answer).toEqual(values.answer);
    expect(await settled(runId)).toMatchObject({ state: 'delivered', attempts: 2, last_status: 200 });
    expect(hook.deliveries).toHaveLength(2);
  });

  it('gives up after maxAttempts, and never follows a redirect', async () => {
    const down = await receiver([status(503), status(503), status(503), status(503)]);
    const thread = await alice.threads.create();
    const run = await alice.runs.create(thread.thread_id, 'rag', {
      input: { messages: [{ role: 'user', content: 'Who signed the contract?' }] },
      webhook: down.url,
    });
    await alice.runs.join(thread.thread_id, run.run_id);
    expect(await settled(run.run_id)).toMatchObject({
      state: 'failed',
      attempts: 3,
      last_status: 503,
      last_error: expect.stringContaining('Gave up after 3 attempts'),
    });
    expect(down.deliveries).toHaveLength(3);

    const stolen = await receiver();
    const redirecting = await receiver([status(307, { location: `http://127.0.0.1:${stolen.port}/stolen` })]);
    const streamed = alice.runs.stream(null, 'rag', {
      input: { messages: [{ role: 'user', content: QUESTION }] },
      webhook: redirecting.url,
    });
    let runId = '';
    for await (const part of streamed) if (part.event === 'metadata') runId = (part.data as { run_id: string }).run_id;
    expect(await settled(runId)).toMatchObject({ state: 'failed', attempts: 1, last_status: 307 });
    expect(stolen.deliveries).toEqual([]);
  });

  it('sends what the requester may read when it is sent: evidence they lost is withheld from a retry', async () => {
    const store = await openSqliteStore(corpus.db);
    try {
      const hook = await receiver([status(503, { 'retry-after': '1' })]);
      const thread = await alice.threads.create();
      const run = await alice.runs.create(thread.thread_id, 'rag', {
        input: { messages: [{ role: 'user', content: QUESTION }] },
        webhook: hook.url,
      });
      const [first] = (await hook.received(1)) as [Delivery];
      const before = JSON.parse(first.body) as { values: { answer: { answer: string } } };
      expect(before.values.answer.answer).not.toBe(WITHHELD_TEXT);
      expect(first.body).toContain('contracts/ct-2024-0193.md');
      // Alice leaves the legal group before the retry (Retry-After: 1 s).
      await store.upsertUser({ name: 'alice', groups: ['engineering'] });
      const [, second] = (await hook.received(2)) as [Delivery, Delivery];
      const after = JSON.parse(second.body) as {
        values: { answer: { answer: string; citations: unknown[] } };
        run_id: string;
      };
      expect(after.run_id).toBe(run.run_id);
      expect(after.values.answer.answer).toBe(WITHHELD_TEXT);
      expect(after.values.answer.citations).toEqual([]);
      expect(second.body).not.toContain('contracts/');
    } finally {
      await store.upsertUser({ name: 'alice', groups: ['legal'] });
      await store.close();
    }
  });

  it('sends the webhook of a queued run when it runs, and of a queued run cancelled before it started', async () => {
    const hook = await receiver();
    const thread = await alice.threads.create();
    const input = { messages: [{ role: 'user', content: QUESTION }] };
    const first = await alice.runs.create(thread.thread_id, 'rag', { input });
    const queued = await alice.runs.create(thread.thread_id, 'rag', {
      input,
      multitaskStrategy: 'enqueue',
      webhook: hook.url,
    });
    const cancelled = await alice.runs.create(thread.thread_id, 'rag', {
      input,
      multitaskStrategy: 'enqueue',
      webhook: hook.url,
    });
    await alice.runs.cancel(thread.thread_id, cancelled.run_id).catch(() => undefined);
    await alice.runs.join(thread.thread_id, first.run_id);
    await alice.runs.join(thread.thread_id, queued.run_id);
    await alice.runs.join(thread.thread_id, cancelled.run_id);
    const deliveries = await hook.received(2);
    const byRun = new Map(deliveries.map((d) => [(JSON.parse(d.body) as { run_id: string }).run_id, d]));
    expect([...byRun.keys()].sort()).toEqual([queued.run_id, cancelled.run_id].sort());
    for (const [runId, delivery] of byRun) {
      expect(verified(delivery)).toBe(true);
      // What the webhook says of the run is what the run API says of it.
      const run = (await alice.runs.get(thread.thread_id, runId)) as unknown as { status: string; outcome: string };
      expect(JSON.parse(delivery.body)).toMatchObject({ status: run.status, outcome: run.outcome });
    }
    expect(JSON.parse(byRun.get(queued.run_id)?.body ?? '{}')).toMatchObject({ outcome: 'answered' });
    await new Promise((done) => setTimeout(done, 500));
    expect(hook.deliveries).toHaveLength(2);
  });

  it("shows a run's webhook to its readers only, and 404 for a run without one", async () => {
    const thread = await alice.threads.create();
    const values = await alice.runs.wait(thread.thread_id, 'rag', {
      input: { messages: [{ role: 'user', content: 'Who signed the contract?' }] },
    });
    expect(values).toBeDefined();
    const [run] = await alice.runs.list(thread.thread_id);
    expect((await webhookOf(run?.run_id ?? '')).status).toBe(404);
  });
});

describe('webhooks toward forbidden targets (no private targets allowed)', () => {
  let alice: Client;
  let hook: Receiver;

  beforeAll(async () => {
    const api = await serve('public', {
      secret: SECRET,
      allowedHosts: ['*'],
      allowHttp: true,
      allowPrivateTargets: false,
    });
    alice = new Client({ apiUrl: api, apiKey: aliceKey });
    hook = await receiver();
  });

  it('refuses loopback, private, link-local and metadata targets in every spelling, and records no run', async () => {
    const port = hook.port;
    const attacks = [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      `http://2130706433:${port}/`,
      `http://0x7f.1:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://user:pass@127.0.0.1:${port}/`,
      `https://user:pass@hooks.example.com/`,
      'ftp://hooks.example.com/',
      `https://hooks.example.com/${'a'.repeat(2100)}`,
    ];
    const thread = await alice.threads.create();
    for (const webhook of attacks) {
      const refused = await alice.runs
        .create(thread.thread_id, 'rag', { input: { messages: [{ role: 'user', content: QUESTION }] }, webhook })
        .then(
          () => undefined,
          (error: Error) => error,
        );
      expect(refused?.message, webhook).toMatch(/400/);
      expect(refused?.message, webhook).toMatch(/invalid_input/);
    }
    const loopback = await alice.runs
      .create(thread.thread_id, 'rag', {
        input: { messages: [{ role: 'user', content: QUESTION }] },
        webhook: `http://localhost:${port}/`,
      })
      .catch((error: Error) => error.message);
    expect(loopback).toMatch(/localhost resolves to/);
    expect(loopback).toMatch(/webhooks\.allowPrivateTargets/);
    expect(await alice.runs.list(thread.thread_id)).toEqual([]);
    expect(hook.deliveries).toEqual([]);
  });

  it('refuses a cron whose payload names a forbidden webhook when it is created', async () => {
    const refused = await alice.crons
      .create('rag', {
        schedule: '0 9 * * 1',
        input: { messages: [{ role: 'user', content: QUESTION }] },
        webhook: 'http://169.254.169.254/latest/meta-data/',
      })
      .then(
        () => 'created',
        (error: Error) => error.message,
      );
    expect(refused).toMatch(/400/);
    expect(refused).toMatch(/link-local/);
    expect(await alice.crons.search({})).toEqual([]);
  });
});

describe('webhooks without a secret', () => {
  it('are refused with webhooks_disabled, naming the setting', async () => {
    const { openAgentRuntime } = await import('../../../agent/agent-runtime.ts');
    const api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
    try {
      const response = await api.request('POST', '/runs/wait', {
        key: api.keys.alice,
        json: {
          assistant_id: 'rag',
          input: { messages: [{ role: 'user', content: QUESTION }] },
          webhook: 'https://hooks.example.com/in',
        },
      });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({
        error: { code: 'webhooks_disabled', hint: expect.stringContaining('webhooks.secret') },
      });
    } finally {
      await api.close();
    }
  });
});
