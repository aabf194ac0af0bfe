import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../domain/index.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';
import { ReaderRedaction, WITHHELD_TEXT } from './redact-for-reader.ts';

/** A stored state's every kind of reference to a chunk, read by someone who may and someone who may not read it. */
let sample: SampleCorpusStore;
const ALICE: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };
const BOB: Principal = { id: 'bob', groups: ['engineering'], roles: ['member'] };
const SECRET = 'contracts/ct-2024-0193.md#0';
const PUBLIC = 'api/orders-api.md#0';

beforeAll(async () => {
  sample = await openSampleCorpusStore([]);
});
afterAll(async () => sample?.close());

const evidence = (chunkId: string, text: string) => ({
  chunk_id: chunkId,
  doc_id: chunkId.split('#')[0],
  source: 'x',
  title: 't',
  heading: 'h',
  text,
  score: 1,
  queries: [],
});

const stored = () => ({
  question: 'What is the termination fee of CT-2024-0193?',
  evidence: [evidence(SECRET, 'a termination fee of $48,000'), evidence(PUBLIC, 'GET /v2/orders/{id}')],
  answer: {
    answer: 'The fee is $48,000 [1].',
    answerable: true,
    confidence: 0.9,
    citations: [{ chunk_id: SECRET, doc_id: 'contracts/ct-2024-0193.md', source: 'x', quote: '$48,000' }],
    missing_information: [],
  },
  history: [
    { role: 'user', content: 'What is the termination fee of CT-2024-0193?' },
    { role: 'assistant', content: 'The fee is $48,000 [1].', sources: [SECRET] },
    { role: 'user', content: 'And the orders API?' },
    { role: 'assistant', content: 'GET /v2/orders/{id} [1].', sources: [PUBLIC] },
  ],
  messages: [
    { id: 'message-0', type: 'human', content: 'What is the termination fee of CT-2024-0193?' },
    { id: 'message-1', type: 'ai', content: 'The fee is $48,000 [1].' },
    { id: 'message-2', type: 'human', content: 'And the orders API?' },
    { id: 'message-3', type: 'ai', content: 'GET /v2/orders/{id} [1].' },
  ],
  hits: [{ query: 'fee', channel: 'keyword', chunk_ids: [SECRET, PUBLIC] }],
  scratchpad: [
    {
      observations: [
        {
          call_id: 'c1',
          tool: 'knowledge_base',
          content: `[chunk_id: ${SECRET}] a termination fee of $48,000`,
          ok: true,
        },
      ],
    },
  ],
  aggregated_context: [
    {
      id: 'x1',
      kind: 'summary',
      doc_id: 'contracts/ct-2024-0193.md',
      title: 'MSA',
      text: 'fee $48,000',
      chunk_ids: [SECRET],
      query: 'fee',
    },
  ],
});

describe("a stored state read with today's permissions", () => {
  it('shows everything to a reader who may read every chunk it names', async () => {
    const redaction = new ReaderRedaction(sample.evident.store, ALICE);
    expect(await redaction.apply(stored())).toEqual(stored());
    expect(redaction.withheld).toBe(0);
  });

  it('withholds every reference to a chunk the reader may not read, and says so', async () => {
    const redacted = await new ReaderRedaction(sample.evident.store, BOB).apply(stored());
    const text = JSON.stringify(redacted);
    expect(text).not.toContain('48,000');
    expect(text).not.toContain(SECRET);
    expect(redacted.evidence.map((item) => item.chunk_id)).toEqual([PUBLIC]);
    expect(redacted.answer.answer).toBe(WITHHELD_TEXT);
    expect(redacted.answer.citations).toEqual([]);
    expect(redacted.history.map((turn) => turn.content)).toEqual([
      'What is the termination fee of CT-2024-0193?',
      WITHHELD_TEXT,
      'And the orders API?',
      'GET /v2/orders/{id} [1].',
    ]);
    expect(redacted.messages[1]?.content).toBe(WITHHELD_TEXT);
    expect(redacted.messages[3]?.content).toBe('GET /v2/orders/{id} [1].');
    expect(redacted.hits[0]?.chunk_ids).toEqual([PUBLIC]);
    expect(redacted.scratchpad[0]?.observations[0]?.content).toBe(WITHHELD_TEXT);
    expect(redacted.aggregated_context).toEqual([]);
    expect((redacted as { withheld?: number }).withheld).toBeGreaterThanOrEqual(6);
  });

  it('reads a stream of states incrementally with the verdicts of one: a field left alone is withheld once a later field hides its document', async () => {
    const redaction = new ReaderRedaction(sample.evident.store, BOB);
    const history = [{ role: 'assistant', content: 'Per contracts/ct-2024-0193.md the fee applies.' }];
    const first = { question: 'q', history, evidence: [evidence(PUBLIC, 'GET /v2/orders/{id}')] };
    expect(await redaction.apply(first)).toEqual(first);
    const second = { ...first, evidence: [...first.evidence, evidence(SECRET, 'a termination fee of $48,000')] };
    const redacted = await redaction.apply(second);
    expect(redacted.evidence.map((item) => item.chunk_id)).toEqual([PUBLIC]);
    expect(redacted.history[0]?.content).toBe(WITHHELD_TEXT);
    expect((redacted as { withheld?: number }).withheld).toBe(2);
    // The same fields again: the same verdicts, counted again for this state.
    expect(await redaction.apply({ ...second })).toEqual(redacted);
  });

  it('withholds a table result computed from a document the reader may not read, rows and all, and a summary folded from one', async () => {
    const state = {
      question: 'q',
      tool_calls: [
        {
          name: 'table_query',
          arguments: { sql: 'SELECT sum(fee) FROM tbl_contracts' },
          result_summary: '1 row; columns: sum\n48000',
          ok: true,
          duration_ms: 3,
          doc_ids: ['contracts/ct-2024-0193.md'],
        },
        {
          name: 'table_query',
          arguments: { sql: 'SELECT count(*) FROM tbl_orders' },
          result_summary: '1 row; columns: count\n12',
          ok: true,
          duration_ms: 2,
          doc_ids: ['api/orders-api.md'],
        },
      ],
      scratchpad: [
        {
          observations: [
            {
              call_id: 'c2',
              tool: 'table_query',
              content: '1 row; columns: sum\n48000',
              ok: true,
              table: { columns: ['sum'], rows: [[48000]] },
              doc_ids: ['contracts/ct-2024-0193.md'],
            },
          ],
        },
      ],
      history_summary: 'Earlier the user asked about a contract whose termination fee is $48,000.',
      history_summary_sources: [SECRET, PUBLIC],
    };
    const forBob = await new ReaderRedaction(sample.evident.store, BOB).apply(state);
    expect(JSON.stringify(forBob)).not.toContain('48');
    expect(forBob.tool_calls.map((call) => call.arguments.sql)).toEqual(['SELECT count(*) FROM tbl_orders']);
    expect(forBob.history_summary).toBe(WITHHELD_TEXT);
    expect(forBob.history_summary_sources).toEqual([PUBLIC]);
    // controllable's tasks rewritten from an answer that rests on the contract go too.
    const replanned = {
      plan: ['Compare the $48,000 fee with the cap'],
      curr_task: 'Compare the $48,000 fee',
      plan_sources: [SECRET],
    };
    const redacted = await new ReaderRedaction(sample.evident.store, BOB).apply(replanned);
    expect(redacted).toMatchObject({ plan: [WITHHELD_TEXT], curr_task: WITHHELD_TEXT, plan_sources: [] });
    expect(await new ReaderRedaction(sample.evident.store, ALICE).apply(state)).toEqual(state);
  });

  it('withholds a deleted document from an admin too', async () => {
    await sample.evident.store.deleteDocument('contracts/ct-2024-0193.md');
    const redacted = await new ReaderRedaction(sample.evident.store, {
      id: 'root',
      groups: [],
      roles: ['admin'],
    }).apply(stored());
    expect(JSON.stringify(redacted)).not.toContain('48,000');
    expect(redacted.evidence.map((item) => item.chunk_id)).toEqual([PUBLIC]);
  });
});
