import type { ChildProcess } from 'node:child_process';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleCorpusStore, type SampleCorpusStore } from '../../../testing/sample-corpus-store.ts';
import { startServeProcess } from '../../../testing/serve-process.ts';

/**
 * Assistants with the official LangGraph SDK against a real `evident serve` on SQLite: the version round trip
 * (create, update, versions, set latest) with a run that applies the chosen version's configuration, owner and ACL
 * rules attacked by another user, and the system assistants kept read-only.
 */
const ADMIN_KEY = 'assistants-admin-key-0123456789';
const QUESTION = 'What is the termination fee of contract CT-2024-0193?';

let sample: SampleCorpusStore;
let server: ChildProcess | undefined;
let url: string;
let alice: Client;
let bob: Client;
let carol: Client;
let admin: Client;
let keys: { alice: string; bob: string };

beforeAll(async () => {
  sample = await openSampleCorpusStore([
    { name: 'alice', groups: ['legal'] },
    { name: 'bob', groups: ['engineering'] },
    { name: 'carol', groups: ['legal'] },
  ]);
  keys = {
    alice: (await sample.evident.store.createApiKey('alice')).key,
    bob: (await sample.evident.store.createApiKey('bob')).key,
  };
  const carolKey = (await sample.evident.store.createApiKey('carol')).key;
  const env: NodeJS.ProcessEnv = { ...process.env, EVIDENT_ADMIN_KEY: ADMIN_KEY };
  delete env.EVIDENT_DB;
  delete env.EVIDENT_DATABASE_URL;
  delete env.EVIDENT_LLM;
  const started = await startServeProcess(['--db', sample.db], env);
  server = started.child;
  url = started.url;
  alice = new Client({ apiUrl: url, apiKey: keys.alice });
  bob = new Client({ apiUrl: url, apiKey: keys.bob });
  carol = new Client({ apiUrl: url, apiKey: carolKey });
  admin = new Client({ apiUrl: url, apiKey: ADMIN_KEY });
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server?.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  await sample?.close();
});

/** The status and error code of a call the SDK made, or `ok`. */
async function outcome(call: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
}

async function raw(method: string, path: string, key: string, json?: unknown) {
  const response = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: response.status, json: (await response.json().catch(() => undefined)) as Record<string, any> };
}

/** A run of the assistant on a new thread, waited for: its final values and its run record. */
async function ask(client: Client, assistantId: string) {
  const thread = await client.threads.create();
  const values = (await client.runs.wait(thread.thread_id, assistantId, {
    input: { messages: [{ role: 'user', content: QUESTION }] },
  })) as Record<string, unknown>;
  const [run] = await client.runs.list(thread.thread_id);
  return { values, run, threadId: thread.thread_id };
}

describe('assistants through the LangGraph SDK', () => {
  it('round-trips versions, and a run applies the version set as latest', async () => {
    const created = await alice.assistants.create({
      graphId: 'rag',
      name: 'Narrow contracts',
      description: 'one piece of evidence',
      config: { configurable: { agent: { maxEvidence: 1 }, retrieval: { topK: 1 } } },
      metadata: { team: 'legal' },
    });
    expect(created).toMatchObject({
      graph_id: 'rag',
      name: 'Narrow contracts',
      version: 1,
      metadata: { team: 'legal' },
    });
    const id = created.assistant_id;
    expect(await alice.assistants.get(id)).toMatchObject({ assistant_id: id, version: 1 });

    const v2 = await alice.assistants.update(id, {
      config: { configurable: { agent: { maxEvidence: 8 }, retrieval: { topK: 8 } } },
      name: 'Wide contracts',
    });
    expect(v2).toMatchObject({ assistant_id: id, version: 2, name: 'Wide contracts', metadata: { team: 'legal' } });
    const versions = await alice.assistants.getVersions(id);
    expect(versions.map((version) => [version.version, version.name])).toEqual([
      [2, 'Wide contracts'],
      [1, 'Narrow contracts'],
    ]);

    // v2 (latest): evidence as wide as its bound lets it be.
    const wide = await ask(alice, id);
    expect((wide.values.evidence as unknown[]).length).toBeGreaterThan(1);
    expect(wide.run).toMatchObject({ assistant_id: id, metadata: { assistant_version: 2, graph_id: 'rag' } });

    const back = await alice.assistants.setLatest(id, 1);
    expect(back).toMatchObject({ version: 1, name: 'Narrow contracts' });
    expect((await alice.assistants.get(id)).version).toBe(1);
    const narrow = await ask(alice, id);
    expect((narrow.values.evidence as unknown[]).length).toBe(1);
    expect(narrow.run).toMatchObject({ assistant_id: id, metadata: { assistant_version: 1 } });

    // The stream's first event names the assistant and version too.
    const streamed = alice.runs.stream((await alice.threads.create()).thread_id, id, {
      input: { messages: [{ role: 'user', content: QUESTION }] },
    });
    const parts: { event: string; data: unknown }[] = [];
    for await (const part of streamed) parts.push(part as { event: string; data: unknown });
    expect(parts[0]).toMatchObject({ event: 'metadata', data: { assistant_id: id, assistant_version: 1 } });

    // A run may name a version itself (Evident's assistant_version).
    const thread = await alice.threads.create();
    const pinned = await raw('POST', `/threads/${thread.thread_id}/runs/wait`, keys.alice, {
      assistant_id: id,
      assistant_version: 2,
      input: { messages: [{ role: 'user', content: QUESTION }] },
    });
    expect(pinned.status).toBe(200);
    expect((pinned.json.evidence as unknown[]).length).toBeGreaterThan(1);
    const missing = await raw('POST', `/threads/${thread.thread_id}/runs/wait`, keys.alice, {
      assistant_id: id,
      assistant_version: 7,
      input: { messages: [{ role: 'user', content: QUESTION }] },
    });
    expect(missing.status).toBe(404);

    await alice.assistants.delete(id);
    expect(await outcome(alice.assistants.get(id))).toBe(404);
    expect(await outcome(ask(alice, id))).toBe(404);
  });

  it("keeps alice's private assistant from bob: get, search, count, versions, run, update, delete", async () => {
    const mine = await alice.assistants.create({
      graphId: 'rag',
      name: 'alice-private-assistant',
      config: { configurable: { prompts: { instructions: 'Answer tersely.' } } },
      metadata: { purpose: 'drafts' },
    });
    const id = mine.assistant_id;
    expect(await outcome(bob.assistants.get(id))).toBe(404);
    expect((await bob.assistants.search({ limit: 100 })).map((a) => a.assistant_id)).not.toContain(id);
    expect(await bob.assistants.search({ name: 'alice-private-assistant' })).toEqual([]);
    expect(await bob.assistants.count({ name: 'alice-private-assistant' })).toBe(0);
    expect(await alice.assistants.count({ name: 'alice-private-assistant' })).toBe(1);
    expect(await outcome(bob.assistants.getVersions(id))).toBe(404);
    expect(await outcome(bob.assistants.getGraph(id))).toBe(404);
    expect(await outcome(ask(bob, id))).toBe(404);
    expect(await outcome(bob.assistants.update(id, { name: 'taken' }))).toBe(404);
    expect(await outcome(bob.assistants.setLatest(id, 1))).toBe(404);
    expect(await outcome(bob.assistants.delete(id))).toBe(404);
    // A create that names the id does not hand bob alice's assistant either.
    expect(await outcome(bob.assistants.create({ graphId: 'rag', assistantId: id, ifExists: 'do_nothing' }))).toBe(409);
    expect((await alice.assistants.get(id)).name).toBe('alice-private-assistant');

    // Shared with the legal group: carol reads and runs it, but only alice (or an admin) changes it.
    const shared = await alice.assistants.update(id, { metadata: { acl: ['group:legal'] } });
    // The metadata given is merged over the latest version's, as LangGraph does.
    expect(shared.metadata).toEqual({ purpose: 'drafts', acl: ['group:legal'] });
    expect((await carol.assistants.get(id)).assistant_id).toBe(id);
    expect((await ask(carol, id)).run).toMatchObject({ assistant_id: id });
    expect(await outcome(carol.assistants.update(id, { name: 'carol was here' }))).toBe(403);
    expect(await outcome(carol.assistants.delete(id))).toBe(403);
    expect(await outcome(bob.assistants.get(id))).toBe(404);
    // Permissions are read at the moment of use: carol leaves legal and loses it at once.
    await sample.evident.store.upsertUser({ name: 'carol', groups: [] });
    expect(await outcome(carol.assistants.get(id))).toBe(404);
    expect(await outcome(ask(carol, id))).toBe(404);
    // An admin reads and deletes any.
    expect((await admin.assistants.get(id)).assistant_id).toBe(id);
    await admin.assistants.delete(id);
    expect(await outcome(alice.assistants.get(id))).toBe(404);
  });

  it('keeps the system assistants listed for everyone and read-only', async () => {
    const listed = await bob.assistants.search({ limit: 3 });
    expect(listed.map((a) => a.assistant_id)).toEqual(['rag', 'react', 'controllable']);
    expect(listed[0]).toMatchObject({ graph_id: 'rag', version: 1, metadata: { created_by: 'system' } });
    // select and pagination as the SDK reads them.
    const paged = await bob.assistants.search({ limit: 2, select: ['assistant_id'], includePagination: true });
    expect(paged.assistants).toEqual([{ assistant_id: 'rag' }, { assistant_id: 'react' }]);
    expect(paged.next).toBe('2');
    expect(await bob.assistants.count({ graphId: 'react' })).toBe(1);
    for (const name of ['rag', 'react', 'controllable']) {
      expect(await outcome(alice.assistants.update(name, { name: 'mine now' }))).toBe(403);
      expect(await outcome(admin.assistants.delete(name))).toBe(403);
      expect(await outcome(admin.assistants.setLatest(name, 1))).toBe(403);
      expect((await alice.assistants.getVersions(name)).map((v) => v.version)).toEqual([1]);
    }
    expect(await outcome(alice.assistants.create({ graphId: 'rag', assistantId: 'rag' }))).toBe(400);
    const schemas = await alice.assistants.getSchemas('rag');
    expect(schemas.graph_id).toBe('rag');
    expect(Object.keys((schemas.config_schema as { properties: object }).properties)).toEqual(
      expect.arrayContaining(['model', 'retrieval', 'prompts', 'agent', 'approvals']),
    );
    expect(await alice.assistants.getSubgraphs('rag')).toEqual({});
  });

  it('validates configuration with errors that name the key, and bounds what an assistant holds', async () => {
    const bad = async (body: Record<string, unknown>) =>
      raw('POST', '/assistants', keys.alice, { graph_id: 'rag', ...body });
    const unknownKey = await bad({ config: { configurable: { agent: { maxEvidenceX: 3 } } } });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.json.error.message).toContain('maxEvidenceX');
    const outOfRange = await bad({ config: { configurable: { agent: { maxEvidence: 500 } } } });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.json.error.message).toContain('config.configurable.agent.maxEvidence');
    // react's bounds are not rag's.
    expect((await bad({ config: { configurable: { agent: { maxIterations: 3 } } } })).status).toBe(400);
    expect((await bad({ graph_id: 'react', config: { configurable: { agent: { maxIterations: 3 } } } })).status).toBe(
      200,
    );
    expect((await bad({ context: { model: 'gpt-5' } })).json.error.message).toContain('context.model');
    expect((await bad({ config: { recursion_limit: 5 } })).json.error.message).toContain('recursion_limit');
    expect((await bad({ graph_id: 'nope' })).status).toBe(400);
    expect((await bad({ name: 'x'.repeat(201) })).status).toBe(400);
    expect((await bad({ acl: ['everyone'] })).status).toBe(400);
    expect((await bad({ acl: ['public', 'user:bob'] })).status).toBe(400);
    expect((await bad({ metadata: { blob: 'x'.repeat(40_000) } })).status).toBe(400);
    // An assistant may narrow the server's approvals (owner and admin for every tool), never widen them.
    expect((await bad({ config: { configurable: { approvals: { tools: { save_memory: ['admin'] } } } } })).status).toBe(
      200,
    );
    const search = await raw('POST', '/assistants/search', keys.alice, { limit: 5000 });
    expect(search.status).toBe(400);
    const sorted = await raw('POST', '/assistants/search', keys.alice, { sort_by: 'owner' });
    expect(sorted.status).toBe(400);
  });
});
