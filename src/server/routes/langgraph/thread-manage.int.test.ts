import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { WITHHELD_TEXT } from '../../../runs/redact-for-reader.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';

/**
 * LangGraph's thread calls beyond create/get/search/delete, with the official SDK: update, count, the state at a
 * checkpoint, prune; and the state writes (`updateState`, `patchState`) refused, because the state holds evidence.
 * Another user's thread answers as a missing one on every call, and changes nothing.
 */
let api: ApiTestServer;
let alice: Client;
let bob: Client;
let admin: Client;
let answered: string;
const QUESTION = 'What is the termination fee of CT-2024-0193?';

/** A checkpoint as the SDK's `getState` takes it (sent as POST …/state/checkpoint). */
const at = (threadId: string, checkpointId: string, ns = '') => ({
  thread_id: threadId,
  checkpoint_ns: ns,
  checkpoint_id: checkpointId,
  checkpoint_map: null,
});
const client = (apiKey: string) => new Client({ apiUrl: api.url, apiKey, callerOptions: { maxRetries: 0 } });

/** The HTTP status (and error code) a refused SDK call got; fails the test when the call succeeded. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; code?: string }> {
  try {
    await call;
  } catch (error) {
    const { status, message } = error as { status?: number; message: string };
    const body = message.slice(message.indexOf(':') + 1).trim();
    const code = (() => {
      try {
        return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
      } catch {
        return undefined;
      }
    })();
    return { status: status ?? -1, ...(code ? { code } : {}) };
  }
  throw new Error('the call succeeded');
}

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  alice = client(api.keys.alice);
  bob = client(api.keys.bob);
  admin = client(api.keys.admin);
  const thread = await alice.threads.create({ metadata: { topic: 'fees', team: 'legal' } });
  await alice.runs.wait(thread.thread_id, 'rag', { input: { question: QUESTION } });
  answered = thread.thread_id;
});
afterAll(async () => api?.close());

describe('threads.update', () => {
  it("merges the owner's metadata into the thread's, and keeps it within the metadata bounds", async () => {
    const updated = await alice.threads.update(answered, { metadata: { reviewed: true, topic: 'termination' } });
    expect(updated.metadata).toMatchObject({ topic: 'termination', team: 'legal', reviewed: true, graph_id: 'rag' });
    expect((await alice.threads.get(answered)).metadata).toMatchObject({ topic: 'termination', reviewed: true });
    expect(updated.status).toBe('idle');

    const deep = { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: { k: { l: 1 } } } } } } } } } } } };
    expect((await refusal(alice.threads.update(answered, { metadata: deep }))).status).toBeGreaterThanOrEqual(400);
    expect((await refusal(alice.threads.update(answered, { metadata: { n: 'x'.repeat(20_000) } }))).status).toBe(400);
    // Each patch is within the bound, but the merged metadata would not be.
    await alice.threads.update(answered, { metadata: { notes: 'x'.repeat(10_000) } });
    expect((await refusal(alice.threads.update(answered, { metadata: { more: 'y'.repeat(10_000) } }))).status).toBe(
      400,
    );
    expect((await refusal(alice.threads.update(answered, { metadata: {}, ttl: 60 }))).status).toBe(400);
    const kept = (await alice.threads.update(answered, { metadata: { notes: null } })).metadata;
    expect(kept).not.toHaveProperty('more');
    expect(kept?.notes).toBeNull();
  });

  it("refuses bob and an admin alice's thread as absent, and changes nothing", async () => {
    const before = (await alice.threads.get(answered)).metadata;
    for (const other of [bob, admin])
      expect(await refusal(other.threads.update(answered, { metadata: { topic: 'planted' } }))).toEqual({
        status: 404,
        code: 'not_found',
      });
    expect(await refusal(bob.threads.update('no-such-thread', { metadata: {} }))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect((await alice.threads.get(answered)).metadata).toEqual(before);
  });
});

describe('threads.count', () => {
  it("counts the caller's own threads with search's filters, never another user's", async () => {
    const other = await alice.threads.create({ metadata: { topic: 'count-me' } });
    const searched = await alice.threads.search({ limit: 1000 });
    expect(await alice.threads.count()).toBe(searched.length);
    expect(await alice.threads.count({ metadata: { topic: 'count-me' } })).toBe(1);
    expect(await alice.threads.count({ metadata: { topic: 'count-me' }, status: 'busy' })).toBe(0);
    // bob and an admin count theirs: alice's threads add nothing to their counts, as search lists none of them.
    const bobBefore = await bob.threads.count();
    expect(await bob.threads.count({ metadata: { topic: 'count-me' } })).toBe(0);
    await bob.threads.create({ metadata: { topic: 'count-me' } });
    expect(await bob.threads.count()).toBe(bobBefore + 1);
    expect(await bob.threads.count({ metadata: { topic: 'count-me' } })).toBe(1);
    expect(await admin.threads.count({ metadata: { topic: 'count-me' } })).toBe(0);
    expect((await refusal(alice.threads.count({ values: { answer: 'x' } }))).status).toBe(400);
    await alice.threads.delete(other.thread_id);
  });
});

describe('threads.getState at a checkpoint', () => {
  it('reads the state at an earlier checkpoint, by id (GET) and by checkpoint (POST)', async () => {
    const history = await alice.threads.getHistory(answered, { limit: 100 });
    expect(history.length).toBeGreaterThan(2);
    const [latest, earlier] = [history[0]!, history[2]!];
    const atLatest = await alice.threads.getState(answered, latest.checkpoint.checkpoint_id!);
    expect(atLatest.values).toEqual((await alice.threads.getState(answered)).values);
    expect(JSON.stringify(atLatest.values)).toContain('48,000');
    const byId = await alice.threads.getState(answered, earlier.checkpoint.checkpoint_id!);
    expect(byId.checkpoint.checkpoint_id).toBe(earlier.checkpoint.checkpoint_id);
    expect(byId.values).toEqual(earlier.values);
    expect(byId.next).toEqual(earlier.next);
    const byCheckpoint = await alice.threads.getState(answered, at(answered, earlier.checkpoint.checkpoint_id!));
    expect(byCheckpoint).toEqual(byId);
  });

  it('answers an unknown checkpoint, and one of a thread the caller may not read, with 404', async () => {
    const [latest] = await alice.threads.getHistory(answered, { limit: 1 });
    const id = latest!.checkpoint.checkpoint_id!;
    expect(await refusal(alice.threads.getState(answered, '1f000000-0000-6000-8000-000000000000'))).toEqual({
      status: 404,
      code: 'not_found',
    });
    expect((await refusal(alice.threads.getState(answered, at(answered, 'x', 'sub')))).status).toBe(400);
    for (const call of [bob.threads.getState(answered, id), bob.threads.getState(answered, at(answered, id))])
      expect(await refusal(call)).toEqual({ status: 404, code: 'not_found' });
    // A checkpoint of alice's thread read through bob's own thread is not found either.
    const bobs = await bob.threads.create();
    expect((await refusal(bob.threads.getState(bobs.thread_id, id))).status).toBe(404);
    // An admin reads it, as the thread's state.
    expect((await admin.threads.getState(answered, id)).checkpoint.checkpoint_id).toBe(id);
  });

  it('withholds what the reader may no longer read, as the current state and history do', async () => {
    const history = await alice.threads.getHistory(answered, { limit: 100 });
    const ids = history.map((state) => state.checkpoint.checkpoint_id!);
    await api.evident.store.upsertUser({ name: 'alice', groups: ['sales'] });
    try {
      const states = await Promise.all(ids.map((id) => alice.threads.getState(answered, at(answered, id))));
      const text = JSON.stringify(states);
      for (const restricted of ['48,000', 'Northwind', 'contracts/ct-2024-0193.md'])
        expect(text).not.toContain(restricted);
      expect(text).toContain(WITHHELD_TEXT);
    } finally {
      await api.evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
    }
    expect(JSON.stringify(await alice.threads.getState(answered, ids[0]!))).toContain('48,000');
  });
});

describe('threads.copy', () => {
  it('gives the owner a new thread of theirs with the same agent, metadata and checkpoints, which goes on alone', async () => {
    const original = await alice.threads.get(answered);
    const history = await alice.threads.getHistory(answered, { limit: 1000 });
    const copy = await alice.threads.copy(answered);
    expect(copy.thread_id).not.toBe(answered);
    expect(copy.metadata).toEqual(original.metadata);
    expect((await alice.threads.getState(copy.thread_id)).values).toEqual(
      (await alice.threads.getState(answered)).values,
    );
    const copied = await alice.threads.getHistory(copy.thread_id, { limit: 1000 });
    expect(copied.map((state) => [state.checkpoint.checkpoint_id, state.parent_checkpoint?.checkpoint_id])).toEqual(
      history.map((state) => [state.checkpoint.checkpoint_id, state.parent_checkpoint?.checkpoint_id]),
    );
    expect(copied.map((state) => state.values)).toEqual(history.map((state) => state.values));
    // The copy is bound to the same agent, continues from the copied state, and leaves the original as it was.
    expect((await refusal(alice.runs.wait(copy.thread_id, 'react', { input: { question: 'x' } }))).status).toBe(409);
    const next = await alice.runs.wait(copy.thread_id, 'rag', { input: { question: 'And what is its pricing?' } });
    expect(JSON.stringify(next)).toContain('answer');
    expect((await alice.threads.getHistory(copy.thread_id, { limit: 1000 })).length).toBeGreaterThan(copied.length);
    expect(await alice.threads.getHistory(answered, { limit: 1000 })).toEqual(history);
    expect((await alice.threads.search({ limit: 1000 })).map((t) => t.thread_id)).toContain(copy.thread_id);
    // An empty thread copies as an empty thread.
    const empty = await alice.threads.create({ metadata: { topic: 'empty' } });
    const emptyCopy = await alice.threads.copy(empty.thread_id);
    expect(emptyCopy.metadata).toEqual({ topic: 'empty' });
    expect(await alice.threads.getHistory(emptyCopy.thread_id)).toEqual([]);
  });

  it("refuses bob and an admin alice's thread as absent, and creates nothing for them", async () => {
    const [bobBefore, adminBefore] = [await bob.threads.count(), await admin.threads.count()];
    for (const other of [bob, admin])
      expect(await refusal(other.threads.copy(answered))).toEqual({ status: 404, code: 'not_found' });
    expect(await refusal(bob.threads.copy('no-such-thread'))).toEqual({ status: 404, code: 'not_found' });
    expect([await bob.threads.count(), await admin.threads.count()]).toEqual([bobBefore, adminBefore]);
  });
});

describe('threads.prune', () => {
  it("deletes the caller's own listed threads and passes over everyone else's", async () => {
    const mine = [await alice.threads.create(), await alice.threads.create()].map((t) => t.thread_id);
    const bobs = (await bob.threads.create()).thread_id;
    const result = await alice.threads.prune([...mine, mine[0]!, bobs, 'no-such-thread']);
    expect(result).toEqual({ pruned_count: 2 });
    for (const id of mine) expect((await refusal(alice.threads.get(id))).status).toBe(404);
    expect((await bob.threads.get(bobs)).thread_id).toBe(bobs);
    // An admin, who may read alice's thread, prunes none of it.
    expect(await admin.threads.prune([answered])).toEqual({ pruned_count: 0 });
    expect((await alice.threads.get(answered)).thread_id).toBe(answered);
  });

  it('refuses keep_latest, an empty list and more ids than the bound', async () => {
    const id = (await alice.threads.create()).thread_id;
    expect((await refusal(alice.threads.prune([id], { strategy: 'keep_latest' }))).status).toBe(400);
    expect((await refusal(alice.threads.prune([]))).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, i) => `t-${i}`);
    expect((await refusal(alice.threads.prune([id, ...many]))).status).toBe(400);
    expect((await alice.threads.get(id)).thread_id).toBe(id);
  });
});

describe('writing the state (updateState, patchState)', () => {
  it("refuses alice planting evidence or an answer in her own thread's state, and the state stays", async () => {
    const before = await alice.threads.getState(answered);
    const historyBefore = await alice.threads.getHistory(answered, { limit: 1000 });
    const planted = {
      evidence: [{ chunk_id: 'planted', doc_id: 'fake.md', text: 'The termination fee is 0 EUR.' }],
      answer: 'The termination fee is 0 EUR [1].',
      citations: [{ chunk_id: 'planted' }],
    };
    const attempts = [
      alice.threads.updateState(answered, { values: planted }),
      alice.threads.updateState(answered, { values: planted, asNode: 'retrieve' }),
      alice.threads.updateState(answered, {
        values: planted,
        checkpointId: historyBefore[2]!.checkpoint.checkpoint_id!,
      }),
      alice.threads.patchState(answered, { source: 'update', trusted: true }),
    ];
    for (const attempt of attempts) {
      const refused = await refusal(attempt);
      expect(refused).toEqual({ status: 403, code: 'thread_state_read_only' });
    }
    const raw = await api.request('POST', `/threads/${answered}/state`, {
      key: api.keys.alice,
      json: { values: planted },
    });
    expect(raw.status).toBe(403);
    expect(raw.text).toContain('written only by its runs');
    expect((raw.json as { error: { hint: string } }).error.hint).toMatch(/Start a run.*checkpoint_id/);

    const after = await alice.threads.getState(answered);
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).not.toContain('planted');
    expect(await alice.threads.getHistory(answered, { limit: 1000 })).toEqual(historyBefore);
  });

  it('refuses a thread created with supersteps (a state written at creation), and creates nothing', async () => {
    const before = await alice.threads.count();
    const refused = await refusal(
      alice.threads.create({ supersteps: [{ updates: [{ values: { answer: 'planted' }, asNode: 'generate' }] }] }),
    );
    expect(refused).toEqual({ status: 403, code: 'thread_state_read_only' });
    expect(await alice.threads.count()).toBe(before);
  });

  it("answers bob's writes to alice's thread as to an absent one", async () => {
    for (const attempt of [
      bob.threads.updateState(answered, { values: { answer: 'planted' } }),
      bob.threads.patchState(answered, { source: 'update' }),
      bob.threads.updateState('no-such-thread', { values: {} }),
    ])
      expect(await refusal(attempt)).toEqual({ status: 404, code: 'not_found' });
  });
});
