import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import { ADMIN_KEY_PRINCIPAL, LOCAL_OPERATOR } from '../domain/index.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { runCli } from '../testing/run-cli.ts';

/**
 * The CLI operator and the admin key act under ids no user can be created with, through the CLI, the HTTP API or the
 * store itself, so nobody takes them over to read or continue their threads.
 */
let api: ApiTestServer;
let operatorThread: string;
let adminKeyThread: string;
const QUESTION = 'What is the termination fee of CT-2024-0193?';

/** The operator's and the admin key's ids, the ids they had before (`local`, `admin-key`), and near spellings. */
const TAKEOVERS = [
  LOCAL_OPERATOR.id,
  ADMIN_KEY_PRINCIPAL.id,
  'local',
  'admin-key',
  'LOCAL',
  'Admin-Key',
  'evident:',
  'groups:legal',
  ' local',
  'local ',
];

const cli = (...args: string[]) => runCli(['--db', api.evident.store.location, ...args]);
const errorOf = (json: unknown) => (json as { error: { code: string; message: string } }).error;

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  const asked = await cli('ask', QUESTION, '--json');
  expect(asked.code, asked.stderr).toBe(0);
  operatorThread = (JSON.parse(asked.stdout) as { thread_id: string }).thread_id;
  const created = await api.request('POST', '/threads', { key: api.keys.admin, json: {} });
  adminKeyThread = (created.json as { thread_id: string }).thread_id;
  const ran = await api.request('POST', `/threads/${adminKeyThread}/runs/wait`, {
    key: api.keys.admin,
    json: { assistant_id: 'rag', input: { question: QUESTION } },
  });
  expect(ran.status, ran.text).toBe(200);
});
afterAll(async () => api?.close());

describe('reserved principals', () => {
  it('keeps the operator and the admin key in a namespace user names cannot enter', async () => {
    expect((await api.evident.store.getThread(operatorThread))?.owner).toBe(LOCAL_OPERATOR.id);
    expect((await api.evident.store.getThread(adminKeyThread))?.owner).toBe(ADMIN_KEY_PRINCIPAL.id);
    expect(LOCAL_OPERATOR.id).toContain(':');
    expect(ADMIN_KEY_PRINCIPAL.id).toContain(':');
  });

  it('refuses those names through evident users add, and no key can be made for them', async () => {
    for (const name of TAKEOVERS) {
      const added = await cli('users', 'add', name, '--admin');
      expect([name, added.code]).toEqual([name, 1]);
      expect(added.stderr).toContain('Invalid user name');
      const key = await cli('keys', 'create', name);
      expect([name, key.code]).toEqual([name, 1]);
    }
    const listed = JSON.parse((await cli('users', 'list', '--json')).stdout) as { name: string }[];
    expect(listed.map((user) => user.name).sort()).toEqual(['alice', 'bob']);
  });

  it('refuses those names through POST /v1/users, even for the admin key', async () => {
    for (const name of TAKEOVERS) {
      const sent = await api.request('POST', '/v1/users', {
        key: api.keys.admin,
        json: { name, groups: [], roles: ['admin'] },
      });
      expect([name, sent.status, errorOf(sent.json).code]).toEqual([name, 400, 'invalid_input']);
    }
    const reserved = await api.request('POST', '/v1/users', { key: api.keys.admin, json: { name: LOCAL_OPERATOR.id } });
    expect(errorOf(reserved.json).message).toMatch(/reserve/);
    expect(
      ((await api.request('GET', '/v1/users', { key: api.keys.admin })).json as { users: { name: string }[] }).users
        .map((u) => u.name)
        .sort(),
    ).toEqual(['alice', 'bob']);
  });

  it('refuses them in the store itself, whoever calls it', async () => {
    for (const name of TAKEOVERS) {
      await expect(api.evident.store.upsertUser({ name, groups: [] })).rejects.toMatchObject({ code: 'invalid_input' });
    }
    await expect(api.evident.store.upsertUser({ name: 'x'.repeat(129), groups: [] })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(api.evident.store.upsertUser({ name: 'carol', groups: ['a:b'] })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(await api.evident.store.getUser('carol')).toBeUndefined();
  });

  it("leaves the operator's and the admin key's threads unreadable to users, and readable to their owners", async () => {
    for (const thread of [operatorThread, adminKeyThread]) {
      for (const key of [api.keys.alice, api.keys.bob]) {
        expect((await api.request('GET', `/threads/${thread}/state`, { key })).status).toBe(404);
        const continued = await api.request('POST', `/threads/${thread}/runs/wait`, {
          key,
          json: { assistant_id: 'rag', input: { question: 'And the cap?' } },
        });
        expect(continued.status).toBe(404);
      }
    }
    // Acting as a reserved id from the CLI is acting as a user that does not exist.
    const as = await cli('ask', 'And the cap?', '--as', LOCAL_OPERATOR.id, '--thread', operatorThread);
    expect(as.code).toBe(1);
    expect(as.stderr).toContain('No user named');
    const threads = JSON.parse((await cli('threads', '--json')).stdout) as { thread_id: string }[];
    expect(threads.map((thread) => thread.thread_id)).toContain(operatorThread);
    expect((await api.request('GET', `/threads/${adminKeyThread}/state`, { key: api.keys.admin })).status).toBe(200);
    expect((await api.evident.store.listRuns(operatorThread, LOCAL_OPERATOR.id)).length).toBe(1);
  });
});
