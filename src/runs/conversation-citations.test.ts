import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '../domain/answer.ts';
import type { Principal } from '../domain/index.ts';
import { openSampleCorpusStore, type SampleCorpusStore } from '../testing/sample-corpus-store.ts';
import { answerTurn } from '../agent/core/shared-state.ts';
import type { Evidence } from '../domain/evidence.ts';
import type { Turn } from '../domain/turn.ts';
import { conversationOf } from './define-agent.ts';
import { ReaderRedaction, WITHHELD_TEXT } from './redact-for-reader.ts';

/** Earlier answers keep their citations in the thread's history, and a reader sees them under today's permissions. */
let sample: SampleCorpusStore;
const ALICE: Principal = { id: 'alice', groups: ['legal'], roles: ['member'] };
const BOB: Principal = { id: 'bob', groups: ['engineering'], roles: ['member'] };
const SECRET = 'contracts/ct-2024-0193.md#0';
const PUBLIC = 'api/orders-api.md#0';

beforeAll(async () => {
  sample = await openSampleCorpusStore([]);
});
afterAll(async () => sample?.close());

const evidence = (chunkId: string, text: string, page?: number): Evidence =>
  ({
    chunk_id: chunkId,
    doc_id: chunkId.split('#')[0] as string,
    source: 'x',
    title: 't',
    heading: 'h',
    text,
    ...(page ? { page } : {}),
    score: 1,
    queries: [],
  }) as Evidence;

const answer = (text: string, chunk: Evidence, quote: string): Answer => ({
  answer: text,
  answerable: true,
  confidence: 0.9,
  citations: [
    { chunk_id: chunk.chunk_id, doc_id: chunk.doc_id, source: 'x', ...(chunk.page ? { page: chunk.page } : {}), quote },
  ],
  missing_information: [],
});

const fee = evidence(SECRET, 'a termination fee of $48,000', 2);
const orders = evidence(PUBLIC, 'GET /v2/orders/{id}');
const history: Turn[] = [
  { role: 'user', content: 'What is the fee?' },
  answerTurn([fee, orders], answer('The fee is $48,000 [1].', fee, 'termination fee of $48,000')),
  { role: 'user', content: 'And the orders API?' },
  answerTurn([orders], answer('GET /v2/orders/{id} [1].', orders, 'GET /v2/orders/{id}')),
];

describe('the citations of earlier answers', () => {
  it("are kept in each answer turn, with only the chunks they cite, and reach the thread's messages", () => {
    expect(history[1]?.cited).toEqual([fee]);
    const messages = conversationOf({ history, status: 'answered' });
    expect(messages[1]).toEqual({
      id: 'message-1',
      type: 'ai',
      content: 'The fee is $48,000 [1].',
      citations: [
        {
          chunk_id: SECRET,
          doc_id: 'contracts/ct-2024-0193.md',
          source: 'x',
          page: 2,
          quote: 'termination fee of $48,000',
        },
      ],
      evidence: [fee],
    });
    expect(messages[0]).toEqual({ id: 'message-0', type: 'human', content: 'What is the fee?' });
  });

  it('are shown to a reader of the cited documents, and withheld whole from one who may not read them', async () => {
    const values = { history, messages: conversationOf({ history, status: 'answered' }) };
    expect(await new ReaderRedaction(sample.evident.store, ALICE).apply(values)).toEqual(values);

    const redacted = await new ReaderRedaction(sample.evident.store, BOB).apply(values);
    expect(JSON.stringify(redacted)).not.toMatch(/48,000|ct-2024-0193/);
    expect(redacted.messages[1]).toMatchObject({ content: WITHHELD_TEXT, citations: [], evidence: [] });
    expect(redacted.messages[3]).toEqual(values.messages[3]);
  });
});
