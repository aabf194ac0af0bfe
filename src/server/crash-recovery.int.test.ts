import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import type { RunRecord } from '../store/store.ts';
import { withSchema } from '../store/postgres/drop-store.ts';
import { FakeLlmServer } from '../testing/fake-llm-server.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { SAMPLE_CORPUS, openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';
import { scriptedRagAnswer } from '../testing/scripted-rag-model.ts';
import { seededRandom } from '../testing/seeded-random.ts';
import { startServeProcess } from '../testing/serve-process.ts';
import { readSse, type SseEvent } from '../testing/sse-reader.ts';

/**
 * `evident serve` killed with SIGKILL in the middle of runs, then another server on the same store: every run the
 * kill caught ends (resumed from its checkpoint, or failed with the public error), its thread takes a new question
 * at once, a stream re-joined with Last-Event-ID on the new server replays exactly the events it missed, and an
 * approved save_memory caught by the kill exists once. The chat model is a slow local endpoint, so each run spends
 * its time in model calls: where the kill lands depends on the seeded stagger and trigger (EVIDENT_CRASH_SEED
 * replays a failing one). The first restart is a cold start (recovery at start-up, two servers racing for the
 * orphans); a later kill is recovered by a server that was already up, in its periodic sweep.
 */
const HEARTBEAT_MS = 250;
/** Short for a test, yet a few heartbeats: a server starved of CPU by its neighbours must not lose its runs. */
const LEASE_MS = 3_000;
/** How long a recovered run may take to end after its new server is up: the lease, a sweep, the rest of its work. */
const RECOVERY_BOUND_MS = LEASE_MS + HEARTBEAT_MS + 20_000;
const SEED = Number(process.env.EVIDENT_CRASH_SEED ?? 20_261_201);
const ADMIN_KEY = 'crash-recovery-admin-key-0123456789';
const QUESTIONS = [
  'What is the termination fee of CT-2024-0193 and what is its notice period?',
  'What is the liability cap of CT-2024-0193, and who are its parties?',
  'What do the expense rules say about hotels and about meals?',
  'How long do webhooks retry, and what happens after that?',
  'What does the security incident policy require first, and who is told?',
];

const llm = new FakeLlmServer();
llm.respond = scriptedRagAnswer;
llm.delayMs = 200;
llm.pieceDelayMs = 10;
beforeAll(() => llm.start());
afterAll(() => llm.stop());

interface Server {
  url: string;
  child: ChildProcess;
}

/** `evident serve` as a child process on the store; resolves once it listens. */
function serve(storeFlags: readonly string[]): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EVIDENT_ADMIN_KEY: ADMIN_KEY,
    EVIDENT_LLM: 'openai:crash-test-model',
    EVIDENT_LLM_BASE_URL: `${llm.url}/v1`,
    EVIDENT_LLM_API_KEY: 'crash-test-key',
    EVIDENT_RUN_HEARTBEAT_MS: String(HEARTBEAT_MS),
    EVIDENT_RUN_LEASE_MS: String(LEASE_MS),
  };
  delete env.EVIDENT_DB;
  delete env.EVIDENT_DATABASE_URL;
  return startServeProcess(storeFlags, env);
}

const exited = (child: ChildProcess) =>
  new Promise<void>((done) =>
    child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done()),
  );

async function kill(server: Server): Promise<void> {
  server.child.kill('SIGKILL');
  await exited(server.child);
}

/** A client of one server, as alice. */
function client(server: Server, key: string) {
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  return {
    ask: (threadId: string, question: string) =>
      post(`/threads/${threadId}/runs`, {
        assistant_id: 'rag',
        input: { messages: [{ role: 'user', content: question }] },
        if_not_exists: 'create',
      }),
    approve: (threadId: string) =>
      post(`/threads/${threadId}/runs`, { assistant_id: 'rag', command: { resume: { decision: 'approve' } } }),
    /** Streams a run from after `lastEventId` into `into` (every mode), until its end or until the server goes away. */
    async follow(threadId: string, runId: string, lastEventId: number, into: SseEvent[]): Promise<void> {
      // A killed server ends the stream mid-way (or before its headers): what arrived until then is what was seen.
      try {
        const response = await fetch(`${server.url}/threads/${threadId}/runs/${runId}/stream`, {
          headers: { ...headers, ...(lastEventId > 0 ? { 'last-event-id': String(lastEventId) } : {}) },
          signal: AbortSignal.timeout(RECOVERY_BOUND_MS + 30_000),
        });
        await readSse(response, (event) => {
          into.push(event);
          return false;
        });
      } catch {
        // The connection went with the server.
      }
    },
  };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const until = async (what: string, check: () => Promise<boolean> | boolean, withinMs: number) => {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await sleep(25);
  }
};

async function ended(evident: Evident, runId: string, withinMs: number): Promise<RunRecord> {
  let run: RunRecord | undefined;
  await until(
    `run ${runId} ends`,
    async () => (run = await evident.store.getRun(runId))?.status !== 'running',
    withinMs,
  );
  return run as RunRecord;
}

const ids = (events: readonly SseEvent[]) => events.map((event) => Number(event.id));
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

interface CrashPoint {
  round: number;
  /** Events the run had stored when the server was killed, and the last of them. */
  storedAtKill: number;
  lastEvent: string;
  outcome: string;
}

interface Exercise {
  evident: Evident;
  storeFlags: string[];
  key: string;
  rounds: number;
  threads: number;
  seed: number;
}

/**
 * Rounds of: a question on each thread (staggered) and a decision on a pending save_memory, a kill once a seeded
 * run has stored a seeded number of events, then the checks on the next server. Each round's questions go to the
 * threads of the round before, right after its runs ended: the thread takes a new question at once.
 */
async function exerciseCrashes({ evident, storeFlags, key, rounds, threads, seed }: Exercise): Promise<CrashPoint[]> {
  const random = seededRandom(seed);
  const points: CrashPoint[] = [];
  const threadIds = Array.from({ length: threads }, () => randomUUID());
  let server = await serve(storeFlags);
  // A second server started with the first restart: it is up before the next kill and recovers by its periodic sweep.
  let standby: Server | undefined;
  try {
    // One pending save_memory per round, asked up front (a remember request interrupts at once, no model call).
    const remember = Array.from({ length: rounds }, (_, round) => ({
      threadId: randomUUID(),
      text: `My contact for round ${round} is Dana ${seed % 1000}-${round}`,
    }));
    for (const { threadId, text } of remember) {
      const asked = await client(server, key).ask(threadId, `Remember that ${text.replace(/^My/, 'my')}`);
      expect(asked.status).toBe(200);
      expect((await ended(evident, String(asked.json.run_id), 30_000)).status).toBe('interrupted');
    }

    for (let round = 0; round < rounds; round++) {
      const api = client(server, key);
      const runs: { threadId: string; runId: string; seen: SseEvent[]; following: Promise<void> }[] = [];
      for (const [index, threadId] of threadIds.entries()) {
        await sleep(Math.floor(random() * 300));
        const started = await api.ask(threadId, QUESTIONS[(round + index) % QUESTIONS.length] as string);
        expect(started.status, JSON.stringify(started.json)).toBe(200);
        const runId = String(started.json.run_id);
        const seen: SseEvent[] = [];
        runs.push({ threadId, runId, seen, following: api.follow(threadId, runId, 0, seen) });
      }
      await sleep(Math.floor(random() * 300));
      const decision = await api.approve(remember[round]?.threadId as string);
      expect(decision.status, JSON.stringify(decision.json)).toBe(200);

      // The kill: once a seeded run has streamed a seeded number of events, after a seeded pause.
      const trigger = runs[Math.floor(random() * runs.length)] as (typeof runs)[number];
      const after = 2 + Math.floor(random() * 20);
      await until(
        'the trigger run streams',
        () => trigger.seen.length >= after || trigger.seen.some((event) => event.event === 'end'),
        60_000,
      );
      await sleep(Math.floor(random() * 200));
      const next = standby;
      await kill(server);
      await Promise.all(runs.map((run) => run.following));
      const atKill = await Promise.all(
        runs.map(async (run) => ({
          run: await evident.store.getRun(run.runId),
          events: await evident.store.listRunEvents(run.runId, 0),
        })),
      );
      if (next) {
        [server, standby] = [next, undefined];
      } else {
        // Started after the kill, both recover at start-up and race for the same orphans: one claim wins each.
        const more = round + 1 < rounds;
        [server, standby] = await Promise.all([serve(storeFlags), more ? serve(storeFlags) : undefined]);
      }
      const fresh = client(server, key);

      for (const [index, { threadId, runId, seen }] of runs.entries()) {
        const done = await ended(evident, runId, RECOVERY_BOUND_MS);
        expect(['answered', 'refused', 'failed']).toContain(done.status);
        if (done.status === 'failed') expect(done.error).toMatch(/^The process running this run stopped;/);
        // The stored log: numbered without a gap, ending with its one `end`.
        const log = await evident.store.listRunEvents(runId, 0);
        expect(log.map((event) => event.seq)).toEqual(range(1, log.length));
        const shown = () => `${JSON.stringify(done)} ${JSON.stringify(log.map((event) => event.event))}`;
        expect(
          log.filter((event) => event.event === 'end'),
          shown(),
        ).toHaveLength(1);
        expect(log.at(-1)?.event).toBe('end');
        // What the client saw before the kill, then a re-join from its last id on the new server: the whole log, once.
        const lastSeen = ids(seen).at(-1) ?? 0;
        const rejoined: SseEvent[] = [];
        await fresh.follow(threadId, runId, lastSeen, rejoined);
        expect(ids(rejoined)).toEqual(range(lastSeen + 1, log.length));
        expect([...ids(seen), ...ids(rejoined)]).toEqual(range(1, log.length));
        expect(rejoined.map((event) => event.event)).toEqual(log.slice(lastSeen).map((event) => event.event));

        const killed = atKill[index] as (typeof atKill)[number];
        if (killed.run?.status === 'running') {
          expect(done.attempt).toBeGreaterThan(1);
          points.push({
            round,
            storedAtKill: killed.events.length,
            lastEvent: killed.events.at(-1)?.event ?? 'none',
            outcome: done.status,
          });
        }
      }

      // The decision the kill may have caught: its memory exists exactly once.
      const approved = await ended(evident, String(decision.json.run_id), RECOVERY_BOUND_MS);
      const { threadId: rememberThread, text } = remember[round] as (typeof remember)[number];
      if (approved.status === 'interrupted') {
        // Killed before its approval was stored: the thread asks for it again, and a second approval saves once.
        const again = await fresh.approve(rememberThread);
        expect((await ended(evident, String(again.json.run_id), 30_000)).status).toBe('answered');
      } else {
        expect(
          approved.status,
          `${approved.error} ${JSON.stringify((await evident.store.listRunEvents(approved.runId, 0)).map((e) => e.event))}`,
        ).toBe('answered');
      }
      const memories = (await evident.store.listMemories('alice')).filter((memory) => memory.text === text);
      const approvalLog = await evident.store.listRunEvents(approved.runId, 0);
      expect(
        memories,
        `${JSON.stringify(approved)} ${JSON.stringify(approvalLog.map((event) => event.event))}`,
      ).toHaveLength(1);
    }

    // After the last round too: every thread takes a new question at once, and answers it.
    const last = await Promise.all(
      threadIds.map((threadId) => client(server, key).ask(threadId, QUESTIONS[0] as string)),
    );
    for (const started of last) expect(started.status, JSON.stringify(started.json)).toBe(200);
    for (const started of last)
      expect(['answered', 'refused']).toContain((await ended(evident, String(started.json.run_id), 60_000)).status);
    return points;
  } finally {
    for (const left of [server, standby]) left?.child.kill('SIGTERM');
    await Promise.all([server, standby].map((left) => left && exited(left.child)));
  }
}

describe('evident serve killed mid-run, on a SQLite store', () => {
  let sample: SampleCorpusStore;
  let key = '';
  beforeAll(async () => {
    sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
    key = (await sample.evident.store.createApiKey('alice')).key;
  });
  afterAll(() => sample?.close());

  it('recovers every run the kill caught, at start-up and from a running server, at ten or more seeded points', async () => {
    const points = await exerciseCrashes({
      evident: sample.evident,
      storeFlags: ['--db', sample.db],
      key,
      rounds: 2,
      threads: 6,
      seed: SEED,
    });
    console.info(
      `crash points (seed ${SEED}): ${points.map((p) => `r${p.round}:${p.storedAtKill}/${p.lastEvent}→${p.outcome}`).join(' ')}`,
    );
    expect(points.length).toBeGreaterThanOrEqual(10);
    expect(points.filter((point) => point.outcome !== 'failed').length).toBeGreaterThan(0);
  }, 180_000);
});

describeWithPostgres('evident serve killed mid-run, on a Postgres store', (url) => {
  const schema = freshSchema('evident_crash');
  const databaseUrl = withSchema(url, schema);
  let evident: Evident;
  let key = '';
  beforeAll(async () => {
    evident = await createEvident(loadConfig({ flags: { databaseUrl }, env: {} }));
    await evident.store.upsertUser({ name: 'alice', groups: ['legal'], roles: ['member'] });
    const summary = await evident.ingestor.ingest([SAMPLE_CORPUS]);
    expect(summary.failed).toBe(0);
    key = (await evident.store.createApiKey('alice')).key;
  });
  afterAll(async () => {
    await evident?.close();
    await dropSchemas(url, [schema]);
  });

  it('recovers every run the kill caught through a server started after the kill', async () => {
    const points = await exerciseCrashes({
      evident,
      storeFlags: ['--database-url', databaseUrl],
      key,
      rounds: 1,
      threads: 4,
      seed: SEED + 1,
    });
    console.info(
      `crash points (postgres, seed ${SEED + 1}): ${points.map((p) => `${p.storedAtKill}/${p.lastEvent}→${p.outcome}`).join(' ')}`,
    );
    expect(points.length).toBeGreaterThanOrEqual(3);
  }, 150_000);
});
