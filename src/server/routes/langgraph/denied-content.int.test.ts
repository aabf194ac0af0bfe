import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAgentRuntime } from '../../../agent/agent-runtime.ts';
import { RecordingChatModel } from '../../../testing/recording-chat-model.ts';
import { RAG_PLANNING } from '../../../testing/rag-model-script.ts';
import { startApiTestServer, type ApiTestServer } from '../../../testing/api-test-server.ts';
import { readSse } from '../../../testing/sse-reader.ts';

/** Text only group legal may read (contracts/ct-2024-0193.md). */
const DENIED = 'fixed monthly platform fee of $12,500';
const QUESTION = 'What is the monthly platform fee in contract CT-2024-0193?';

/** Answers every call: a refusal for answerability, an answer quoting nothing for generation. */
const model = new RecordingChatModel([], { standing: RAG_PLANNING });
const reply = (call: { schemaName?: string }) =>
  call.schemaName === 'answerability'
    ? { answerable: false, reasons: ['not in the excerpts'], missing_information: ['the monthly fee'] }
    : { answer: 'n/a', answerable: false, confidence: 0, citations: [], missing_information: ['the monthly fee'] };

let api: ApiTestServer;
beforeAll(async () => {
  api = await startApiTestServer({
    agents: (evident) => openAgentRuntime(evident, { chat: { id: 'recording:leak-check', model } }),
  });
});
afterAll(async () => api?.close());

async function askOverHttp(key: string): Promise<{ sse: string; runId: string; threadId: string; stateText: string }> {
  for (let i = 0; i < 4; i++) model.push(reply);
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const thread = (await (await fetch(`${api.url}/threads`, { method: 'POST', headers, body: '{}' })).json()) as {
    thread_id: string;
  };
  const response = await fetch(`${api.url}/threads/${thread.thread_id}/runs/stream`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      assistant_id: 'rag',
      input: { question: QUESTION },
      stream_mode: ['values', 'updates', 'custom', 'messages'],
    }),
  });
  const sse = await response.clone().text();
  const { events } = await readSse(response);
  const stateText = await (await fetch(`${api.url}/threads/${thread.thread_id}/state`, { headers })).text();
  return { sse, runId: (events[0]?.data as { run_id: string }).run_id, threadId: thread.thread_id, stateText };
}

describe('a denied document', () => {
  it('never reaches the prompt, the events, the stored log, the state or the run record of a user without access', async () => {
    const before = model.calls.length;
    const bob = await askOverHttp(api.keys.bob);
    const prompts = model.prompts.slice(before);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) expect(prompt).not.toContain(DENIED);
    expect(bob.sse).toContain('event: end');
    expect(bob.sse).not.toContain(DENIED);
    expect(bob.stateText).not.toContain(DENIED);
    const stored = await api.evident.store.listRunEvents(bob.runId, 0);
    expect(stored.length).toBeGreaterThan(5);
    expect(JSON.stringify(stored)).not.toContain(DENIED);
    expect(JSON.stringify(await api.evident.store.getRun(bob.runId))).not.toContain(DENIED);
  });

  it('does reach them for a user in the document’s group (so the checks above can fail)', async () => {
    const before = model.calls.length;
    const alice = await askOverHttp(api.keys.alice);
    expect(model.prompts.slice(before).some((prompt) => prompt.includes(DENIED))).toBe(true);
    expect(alice.sse).toContain(DENIED);
  });
});
