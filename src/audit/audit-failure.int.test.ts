import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import type { Logger } from '../logging/logger.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';

/**
 * When the audit log cannot be written (here: the database itself refuses inserts into it), a search fails closed with
 * an opaque error and no result; an approval is refused before its action runs; a run's answer is withheld from a
 * client waiting for its end (a stream has it already) and the failure is logged as an error; an admin change stands and
 * its response says the request failed.
 */
let api: ApiTestServer;
let db: Database.Database;
const errors: { message: string; fields?: Record<string, unknown> }[] = [];
const logger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error: (message, fields) => void errors.push({ message, ...(fields ? { fields } : {}) }),
};

beforeAll(async () => {
  api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident, { logger }) });
  db = new Database(api.evident.store.location);
  db.exec("CREATE TRIGGER audit_refused BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit disk full'); END;");
});
afterAll(async () => {
  db?.close();
  await api?.close();
});

describe('when the audit log cannot be written', () => {
  it('fails a search with an opaque 500 and no results, then serves it again once the log takes writes', async () => {
    const search = () =>
      api.request('POST', '/v1/search', { key: api.keys.bob, json: { query: 'expense report receipts' } });
    const refused = await search();
    expect(refused.status).toBe(500);
    expect(refused.json).toMatchObject({ error: { message: 'The server failed to handle the request.' } });
    expect(refused.text).not.toMatch(/results|doc_id|expenses\.md|audit disk full|withheld/);

    db.exec('DROP TRIGGER audit_refused');
    try {
      const served = await search();
      expect(served.status).toBe(200);
      expect((served.json as { results: unknown[] }).results.length).toBeGreaterThan(0);
      expect((await api.evident.store.listAudit({ limit: 5, actor: 'bob' })).map((e) => e.action)).toEqual(['search']);
    } finally {
      db.exec(
        "CREATE TRIGGER audit_refused BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit disk full'); END;",
      );
    }
  });

  it("withholds a waited-for run's answer it could not record, and logs the failure as an error naming the run", async () => {
    const wait = await api.request('POST', '/runs/wait', {
      key: api.keys.alice,
      json: { assistant_id: 'rag', input: { question: 'How many days do I have to submit an expense report?' } },
    });
    expect(wait.status).toBe(500);
    expect(wait.text).not.toMatch(/expense|days/i);
    const runs = await api.evident.store.listThreads('alice');
    const runId = (await api.evident.store.listRuns(runs[0]?.threadId as string, 'alice'))[0]?.runId;
    for (let attempt = 0; attempt < 100 && !errors.some((e) => e.fields?.run_id === runId); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors.find((e) => e.fields?.run_id === runId)).toMatchObject({
      message: 'audit record failed',
      fields: { what: 'ask' },
    });
  });

  it('refuses a decision it cannot record: the approved action does not run', async () => {
    const thread = (await api.request('POST', '/threads', { key: api.keys.alice, json: {} })).json as {
      thread_id: string;
    };
    const asked = await api.request('POST', `/threads/${thread.thread_id}/runs/wait`, {
      key: api.keys.alice,
      json: { assistant_id: 'rag', input: { question: 'Remember that I prefer answers in bullet points' } },
    });
    // The run waits for approval; its end could not be recorded either, so the waiting client gets an error.
    expect(asked.status).toBe(500);
    const decided = await api.request('POST', `/threads/${thread.thread_id}/runs/wait`, {
      key: api.keys.alice,
      json: { assistant_id: 'rag', command: { resume: { decision: 'approve' } } },
    });
    expect(decided.status).toBe(500);
    expect(await api.evident.store.listMemories('alice')).toEqual([]);
    const runs = (await api.request('GET', `/threads/${thread.thread_id}/runs`, { key: api.keys.alice })).json as {
      status: string;
    }[];
    expect(runs.map((run) => run.status)).toEqual(['interrupted']);
  });

  it('keeps an admin change it could not record, and says the request failed', async () => {
    const response = await api.request('POST', '/v1/users', {
      key: api.keys.admin,
      json: { name: 'dana', groups: [] },
    });
    expect(response.status).toBe(500);
    expect(await api.evident.store.getUser('dana')).toBeDefined();
  });
});
