import { describe, expect, it } from 'vitest';
import type { Principal } from '../domain/index.ts';
import { WITHHELD_TEXT } from './redact-for-reader.ts';
import { RunStreamRedaction, withheldDetail } from './run-stream-redaction.ts';

const reader: Principal = { id: 'alice', groups: ['sales'], roles: ['member'] };
/** A store where the reader may read `open/*` chunks only; it counts its queries. */
function storeReading() {
  const store = {
    queries: 0,
    async getChunks(ids: readonly string[]) {
      store.queries += 1;
      return ids.filter((id) => id.startsWith('open/')).map((id) => ({ id })) as never[];
    },
  };
  return store;
}
const metadata = (modes: string[]) => ({ run_id: 'r', stream_modes: modes });
const PROMPT = {
  event: 'on_chat_model_start',
  name: 'ChatOpenAI',
  run_id: 'x',
  tags: [],
  metadata: { langgraph_node: 'generate' },
  parent_ids: [],
  // A prompt that quotes the evidence without naming its chunk.
  data: { input: { messages: [[{ type: 'human', content: 'Context: the termination fee is $48,000.' }]] } },
};
const hit = (chunkId: string) => ({ event: { node: 'retrieve', evidence: [{ chunk_id: chunkId, text: 'x' }] } });

async function read(redaction: RunStreamRedaction, events: [string, unknown][], from = 0) {
  const out: unknown[] = [];
  for (const [index, [event, data]] of events.entries()) {
    const shown = index >= from;
    const redacted = await redaction.next(event, data, data, shown);
    if (shown) out.push(redacted);
  }
  return out;
}

describe('RunStreamRedaction', () => {
  it("withholds an events event's data once the run's log named a chunk the reader may not read", async () => {
    const events: [string, unknown][] = [
      ['metadata', metadata(['values', 'events'])],
      ['custom', hit('secret/contract.md#0')],
      ['events', PROMPT],
    ];
    const out = await read(new RunStreamRedaction(storeReading(), reader), events);
    expect(out[2]).toMatchObject({
      event: 'on_chat_model_start',
      name: 'ChatOpenAI',
      data: { withheld: WITHHELD_TEXT },
    });
    expect(JSON.stringify(out)).not.toContain('48,000');
    // From a replay point past the retrieval too: the events before it are read for the chunks they name.
    const late = await read(new RunStreamRedaction(storeReading(), reader), events, 2);
    expect(late).toEqual([expect.objectContaining({ data: { withheld: WITHHELD_TEXT } })]);
  });

  it('leaves the data of a run that used only what the reader may read, and asks the store once per new ids', async () => {
    const store = storeReading();
    const events: [string, unknown][] = [
      ['metadata', metadata(['values', 'events', 'tasks'])],
      ['custom', hit('open/policy.md#0')],
      ['events', PROMPT],
      ['tasks', { id: 't', name: 'generate', interrupts: [], result: {}, error: 'model said 48,000 is wrong' }],
    ];
    const out = await read(new RunStreamRedaction(store, reader), events);
    expect(out[2]).toEqual(PROMPT);
    expect(out[3]).toMatchObject({ error: 'model said 48,000 is wrong' });
    expect(store.queries).toBeLessThanOrEqual(2);
  });

  it("withholds a task's error text, keeping the task's ids", async () => {
    const events: [string, unknown][] = [
      ['metadata', metadata(['tasks'])],
      ['custom', hit('secret/contract.md#0')],
      ['tasks', { id: 't', name: 'generate', interrupts: [], result: {}, error: 'could not parse: the fee is 48,000' }],
    ];
    const out = await read(new RunStreamRedaction(storeReading(), reader), events);
    expect(out[2]).toMatchObject({ id: 't', name: 'generate', error: WITHHELD_TEXT });
  });

  it('reads no chunk ids for a run without detail modes', async () => {
    const store = storeReading();
    const events: [string, unknown][] = [
      ['metadata', metadata(['values'])],
      ['custom', { event: { node: 'x', summary: 'no ids here' } }],
    ];
    await read(new RunStreamRedaction(store, reader), events);
    expect(store.queries).toBe(0);
  });
});

describe('withheldDetail', () => {
  it("keeps a tools event's name and ids, withholding its input, output and error", () => {
    expect(
      withheldDetail('tools', { event: 'on_tool_end', name: 'lookup', toolCallId: 'c1', output: 'the fee is 48,000' }),
    ).toEqual({ event: 'on_tool_end', name: 'lookup', toolCallId: 'c1', output: WITHHELD_TEXT });
    expect(
      withheldDetail('debug', { type: 'task_result', payload: { id: 't', error: 'read 48,000', result: {} } }),
    ).toEqual({ type: 'task_result', payload: { id: 't', error: WITHHELD_TEXT, result: {} } });
  });
});
