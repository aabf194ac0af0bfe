import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { CompliantChatModel } from '../testing/compliant-chat-model.ts';
import {
  addSampleUsers,
  addSessionUsers,
  askOnSurface,
  canaryDocuments,
  coverage,
  fuzzQueries,
  LEAK_SURFACES,
  runLeakFuzz,
  uploadCanaries,
  type FuzzQuery,
  type FuzzUser,
} from '../testing/leak-fuzz.ts';
import { LeakOracle, readCorpus, textOfBody } from '../testing/leak-oracle.ts';
import { SAMPLE_CORPUS } from '../testing/sample-corpus-store.ts';

/**
 * Seeded queries made of restricted documents' own words (the sample corpus with its ACLs, plus documents with canary
 * strings written here), asked by users who may not read them on every surface: CLI search, /v1/search, LangGraph runs
 * (all stream modes, state, history, runs, replay), chat completions, uploads and listings. Nothing of a denied document
 * — id, title, canary or a run of its words — may come back, nor reach a prompt. The 10,000-query run is
 * `npm run bench:leak` (bench/security/leak-fuzz.ts); this one is bounded for CI.
 */
const SEED = 12_001;
const QUERIES = 240;
const SESSION_QUERIES = 120;

const model = new CompliantChatModel();
let api: ApiTestServer;
let users: FuzzUser[];
/** The same people signed in as browsers (session cookie and CSRF token, no key). */
let webUsers: FuzzUser[];
let oracle: LeakOracle;

beforeAll(async () => {
  api = await startApiTestServer({
    // The permission layer alone is fuzzed: the evidence gate refusing an off-topic answer must not be what stops a leak.
    env: { EVIDENT_EVIDENCE_GATE: 'off' },
    agents: (evident) => openAgentRuntime(evident, { chat: { id: 'compliant:leak-fuzz', model } }),
  });
  users = await addSampleUsers(api);
  webUsers = await addSessionUsers(api);
  const canaries = canaryDocuments(SEED, 6);
  await uploadCanaries(api, canaries);
  const stored = await api.evident.store.listDocuments(LOCAL_OPERATOR);
  oracle = new LeakOracle([
    ...(await readCorpus(SAMPLE_CORPUS, new Map(stored.map((doc) => [doc.docId, doc.title])))),
    ...canaries,
  ]);
});
afterAll(async () => api?.close());

const user = (name: string) => users.find((candidate) => candidate.name === name) as FuzzUser;

describe('leak fuzz: restricted text never reaches a user without access', () => {
  it('stores every document with the ACL its file declares (the oracle and the store agree)', async () => {
    const stored = new Map(
      (await api.evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => [doc.docId, [...doc.acl].sort()]),
    );
    expect(stored.size).toBe(oracle.documents.length);
    for (const doc of oracle.documents) expect(stored.get(doc.docId), doc.docId).toEqual([...doc.acl].sort());
    expect(oracle.documents.filter((doc) => doc.acl.length > 0).length).toBeGreaterThanOrEqual(10);
  });

  it('finds the leak on every answering surface when the asker may read the document (so the fuzz can fail)', async () => {
    // alice (legal) may read CT-2024-0193; judged as bob, what she receives is a leak on each surface.
    const base = {
      index: 0,
      user: user('alice'),
      source: 'contracts/ct-2024-0193.md',
      query: 'monthly platform fee per delivered parcel',
      modes: ['values', 'messages'],
      stream: true,
    };
    const surfaces = ['search_http', 'search_cli', 'langgraph', 'chat_completions'] as const;
    for (const surface of surfaces) {
      for (const agent of surface === 'langgraph' || surface === 'chat_completions'
        ? (['rag', 'react', 'controllable'] as const)
        : (['rag'] as const)) {
        const query: FuzzQuery = { ...base, surface, agent };
        model.calls.splice(0);
        const outcome = await askOnSurface(api, query);
        expect(outcome.ok, `${surface} ${agent}: ${outcome.detail}`).toBe(true);
        const leaks = oracle.leaks(user('bob'), query.query, outcome.outputs.map(textOfBody).join('\n'));
        expect(
          leaks.map((leak) => leak.docId),
          `${surface} ${agent}`,
        ).toContain('contracts/ct-2024-0193.md');
        if (surface === 'langgraph')
          expect(
            oracle.leaks(user('bob'), query.query, model.prompts.join('\n')).length,
            `${agent} prompts`,
          ).toBeGreaterThan(0);
      }
    }
  });

  it(`asks ${QUERIES} seeded queries on every surface and finds no restricted id, title, canary or text in any output or prompt`, async () => {
    const queries = fuzzQueries(oracle, users, { seed: SEED, count: QUERIES });
    const report = await runLeakFuzz(api, oracle, queries, model);
    expect(report.leaks.slice(0, 5)).toEqual([]);
    expect(report.failures).toEqual([]);
    for (const surface of LEAK_SURFACES) expect(report.perSurface[surface].queries, surface).toBeGreaterThan(0);
    expect(report.prompts).toBeGreaterThan(50);
    // The queries are made of the restricted documents' words, not of a few of them.
    expect(coverage(queries, oracle)).toBeGreaterThan(0.3);
  }, 240_000);

  it(`asks ${SESSION_QUERIES} seeded queries as signed-in browsers (session cookie, no key) and finds no leak`, async () => {
    // So this run can fail: a browser user who may read the document receives it, judged as one who may not.
    const reader = webUsers.find((candidate) => candidate.name === 'web.alice') as FuzzUser;
    const probe: FuzzQuery = {
      index: 0,
      surface: 'search_http',
      user: reader,
      source: 'contracts/ct-2024-0193.md',
      query: 'monthly platform fee per delivered parcel',
      agent: 'rag',
      modes: [],
      stream: false,
    };
    const seen = await askOnSurface(api, probe);
    expect(seen.ok, seen.detail).toBe(true);
    expect(oracle.leaks(user('bob'), probe.query, seen.outputs.map(textOfBody).join('\n')).length).toBeGreaterThan(0);

    const queries = fuzzQueries(oracle, webUsers, { seed: SEED + 1, count: SESSION_QUERIES });
    const report = await runLeakFuzz(api, oracle, queries, model);
    expect(report.leaks.slice(0, 5)).toEqual([]);
    expect(report.failures).toEqual([]);
    for (const surface of LEAK_SURFACES) expect(report.perSurface[surface].queries, surface).toBeGreaterThan(0);
    expect(queries.every((query) => query.user.session !== undefined)).toBe(true);
  }, 240_000);
});
