import { afterAll, beforeAll, expect, it } from 'vitest';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { CompliantChatModel } from '../testing/compliant-chat-model.ts';
import { LeakOracle, readCorpus, textOfBody, type OracleUser } from '../testing/leak-oracle.ts';
import { SAMPLE_CORPUS } from '../testing/sample-corpus-store.ts';

/**
 * Issue 26 (3): once old turns fold into rag's running summary, a value from a document the user may no longer read
 * must not stay there — neither in what she reads back of the thread, nor in what the next run starts from. A history
 * window of two turns makes the first answer fold into the summary at the third question.
 */
const QUESTION = 'What is the fixed monthly platform fee and the price per delivered parcel in CT-2024-0193?';
const model = new CompliantChatModel();
let api: ApiTestServer;
let oracle: LeakOracle;
const aliceNow: OracleUser = { name: 'alice', groups: [] };

beforeAll(async () => {
  api = await startApiTestServer({
    // The gate off: the compliant model's answer (the contract's opening sentence) stands, as a wrong gate would let
    // one through; what is under test is what the summary keeps of it.
    env: { EVIDENT_RAG_HISTORY_WINDOW: '2', EVIDENT_EVIDENCE_GATE: 'off' },
    // A model that summarises faithfully: the summary carries the contract's answer, as a real one would.
    agents: (evident) => openAgentRuntime(evident, { chat: { id: 'compliant:lost-summary', model } }),
  });
  const titles = new Map((await api.evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => [doc.docId, doc.title]));
  oracle = new LeakOracle(await readCorpus(SAMPLE_CORPUS, titles));
});
afterAll(async () => api?.close());

const ask = (threadId: string, question: string) =>
  api.request('POST', `/threads/${threadId}/runs/wait`, {
    key: api.keys.alice,
    json: { assistant_id: 'rag', input: { question } },
  });

it("withholds a running summary folded from a contract she lost, from her reads and from the model's prompts", async () => {
  const thread = (await api.request('POST', '/threads', { key: api.keys.alice, json: {} })).json as {
    thread_id: string;
  };
  expect((await ask(thread.thread_id, QUESTION)).status).toBe(200);
  expect((await ask(thread.thread_id, 'How do partners authenticate against the Orders API?')).status).toBe(200);
  expect((await ask(thread.thread_id, 'How many days do I have to submit an expense report?')).status).toBe(200);
  const state = await api.request('GET', `/threads/${thread.thread_id}/state`, { key: api.keys.alice });
  const folded = (state.json as { values: { history_summary: string; history_summary_sources: string[] } }).values;
  // While she is in legal the summary holds the contract's answer, and records the chunks it rests on.
  expect(folded.history_summary_sources.some((id) => id.startsWith('contracts/ct-2024-0193.md#'))).toBe(true);
  expect(oracle.leaks(aliceNow, QUESTION, folded.history_summary).map((leak) => leak.docId)).toContain(
    'contracts/ct-2024-0193.md',
  );

  await api.evident.store.upsertUser({ name: 'alice', groups: [] });
  const after = await api.request('GET', `/threads/${thread.thread_id}/state`, { key: api.keys.alice });
  expect(oracle.leaks(aliceNow, QUESTION, textOfBody(after.text))).toEqual([]);
  // The next run starts without the summary: the model is shown nothing of the contract, nor is she.
  const first = model.calls.length;
  const next = await ask(thread.thread_id, 'And how does that compare with the termination fee?');
  expect(next.status).toBe(200);
  expect(oracle.leaks(aliceNow, QUESTION, model.prompts.slice(first).join('\n'))).toEqual([]);
  expect(oracle.leaks(aliceNow, QUESTION, textOfBody(next.text))).toEqual([]);
  const latest = await api.request('GET', `/threads/${thread.thread_id}/state`, { key: api.keys.alice });
  expect(oracle.leaks(aliceNow, QUESTION, textOfBody(latest.text))).toEqual([]);
  // Back in legal, the stored summary itself holds nothing of the contract: the new run was folded without it.
  await api.evident.store.upsertUser({ name: 'alice', groups: ['legal'] });
  const stored = await api.request('GET', `/threads/${thread.thread_id}/state`, { key: api.keys.alice });
  expect(
    oracle.leaks(aliceNow, QUESTION, (stored.json as { values: { history_summary: string } }).values.history_summary),
  ).toEqual([]);
});
