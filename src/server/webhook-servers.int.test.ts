import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { verifyWebhookSignature } from '../runs/webhooks/webhook-signature.ts';
import { withSchema } from '../store/postgres/drop-store.ts';
import { FakeLlmServer } from '../testing/fake-llm-server.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { SAMPLE_CORPUS } from '../testing/sample-corpus-store.ts';
import { scriptedRagAnswer } from '../testing/scripted-rag-model.ts';
import { startServeProcess } from '../testing/serve-process.ts';

const SECRET = 'webhook-servers-secret-0123456789abcdef-01234';
const ADMIN_KEY = 'webhook-servers-admin-key-0123456789';
const QUESTION = 'What is the termination fee of CT-2024-0193 and what is its notice period?';

const llm = new FakeLlmServer();
llm.respond = scriptedRagAnswer;
llm.delayMs = 300;
beforeAll(() => llm.start());
afterAll(() => llm.stop());

interface Delivery {
  runId: string;
  eventId: string;
  signed: boolean;
  status: string;
}

// Several `evident serve` processes on one Postgres store, each delivering webhooks: every run's webhook reaches the
// receiver exactly once, whichever server ended the run — also a run whose server was killed mid-run and that
// another server recovered.
describeWithPostgres('webhooks across servers on one Postgres store', (url) => {
  const schema = freshSchema('evident_webhooks');
  const databaseUrl = withSchema(url, schema);
  const deliveries: Delivery[] = [];
  const children: ChildProcess[] = [];
  let evident: Evident;
  let receiver: Server;
  let hookUrl = '';
  let key = '';
  let dir = '';

  const serve = async (): Promise<{ url: string; child: ChildProcess }> => {
    const started = await startServeProcess(['--database-url', databaseUrl, '--config', join(dir, 'config.json')], {
      ...process.env,
      EVIDENT_ADMIN_KEY: ADMIN_KEY,
      EVIDENT_LLM: 'openai:webhook-test-model',
      EVIDENT_LLM_BASE_URL: `${llm.url}/v1`,
      EVIDENT_LLM_API_KEY: 'webhook-test-key',
    });
    children.push(started.child);
    return started;
  };
  const ask = async (server: string, threadId: string): Promise<string> => {
    const response = await fetch(`${server}/threads/${threadId}/runs`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        assistant_id: 'rag',
        input: { messages: [{ role: 'user', content: QUESTION }] },
        if_not_exists: 'create',
        webhook: hookUrl,
      }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { run_id: string }).run_id;
  };
  const delivered = async (count: number, withinMs: number) => {
    const deadline = Date.now() + withinMs;
    while (deliveries.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${deliveries.length}`);
      await new Promise((done) => setTimeout(done, 100));
    }
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-webhook-servers-'));
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const payload = JSON.parse(body) as { run_id: string; event_id: string; status: string };
        deliveries.push({
          runId: payload.run_id,
          eventId: String(request.headers['x-evident-event-id']),
          signed: verifyWebhookSignature({
            secret: SECRET,
            body,
            signature: request.headers['x-evident-signature'] as string,
          }),
          status: payload.status,
        });
        response.end('ok');
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await writeFile(
      join(dir, 'config.json'),
      JSON.stringify({
        webhooks: { secret: SECRET, allowedHosts: ['127.0.0.1'], allowHttp: true, allowPrivateTargets: true },
        runs: { heartbeatMs: 250, leaseMs: 3_000 },
      }),
    );
    evident = await createEvident(loadConfig({ flags: { databaseUrl }, env: {} }));
    await evident.store.upsertUser({ name: 'alice', groups: ['legal'], roles: ['member'] });
    expect((await evident.ingestor.ingest([SAMPLE_CORPUS])).failed).toBe(0);
    key = (await evident.store.createApiKey('alice')).key;
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map(
        (child) =>
          new Promise((done) =>
            child.exitCode !== null || child.signalCode !== null ? done(null) : child.once('exit', done),
          ),
      ),
    );
    await new Promise((done) => receiver?.close(done));
    await evident?.close();
    await dropSchemas(url, [schema]);
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers each run once across two servers, and a run whose server died through the one that recovered it', async () => {
    const [first, second] = await Promise.all([serve(), serve()]);
    // Runs on both servers at once: each ends where it started, while the other server sweeps for due webhooks too.
    const runIds = await Promise.all(
      [first.url, second.url, first.url, second.url].map((server, i) => ask(server, `webhook-thread-${i}`)),
    );
    await delivered(4, 60_000);
    // Every run once, signed; nothing more arrives on later sweeps.
    await new Promise((done) => setTimeout(done, 1_500));
    expect(deliveries.map((d) => d.runId).sort()).toEqual([...runIds].sort());
    expect(new Set(deliveries.map((d) => d.eventId)).size).toBe(4);
    expect(deliveries.every((d) => d.signed)).toBe(true);

    // A run caught by a SIGKILL of its server: the other server recovers it once its lease expires, and sends it.
    const caught = await ask(first.url, 'webhook-thread-crash');
    const deadline = Date.now() + 30_000;
    while ((await evident.store.listRunEvents(caught, 0, 10)).length < 2) {
      if (Date.now() > deadline) throw new Error('the run did not start');
      await new Promise((done) => setTimeout(done, 25));
    }
    expect((await evident.store.getRun(caught))?.status).toBe('running');
    first.child.kill('SIGKILL');
    await delivered(5, 60_000);
    await new Promise((done) => setTimeout(done, 1_500));
    const crashed = deliveries.filter((d) => d.runId === caught);
    expect(crashed).toHaveLength(1);
    expect(crashed[0]?.signed).toBe(true);
    const run = await evident.store.getRun(caught);
    expect(run?.attempt).toBe(2);
    expect(await evident.store.getRunWebhook(caught)).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(deliveries).toHaveLength(5);
  }, 180_000);
});
