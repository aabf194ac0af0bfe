import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../domain/evidence.ts';
import { evidenceGate, type GatedRun } from './evidence-gate.ts';

const ticket: Evidence = {
  chunk_id: 'tickets.md#0',
  doc_id: 'tickets.md',
  source: 'tickets.md',
  title: 'Support tickets',
  heading: 'HIP-3: webhook retries',
  text: 'Root cause: their endpoint took 35 seconds to answer, beyond our 30-second timeout, so the delivery was retried.',
  score: 1,
  queries: [],
};

const run = (answer: string, extra: Partial<GatedRun> = {}): GatedRun => ({
  question: 'How long did the endpoint take to answer in HIP-3?',
  standalone_question: '',
  sub_questions: [],
  evidence: [ticket],
  answer: {
    answer,
    answerable: true,
    confidence: 0.9,
    citations: [{ chunk_id: ticket.chunk_id, doc_id: ticket.doc_id, source: ticket.source, quote: ticket.text }],
    missing_information: [],
  },
  tool_calls: [],
  status: 'running',
  mode: 'offline',
  principal: null,
  ...extra,
});

describe('the evidence gate node', () => {
  it('reads the questions a hop chain resolved as readings of the one need, so a listed answer is narrowed to one value', async () => {
    const listed = '35 seconds, within 30 seconds; 35 seconds. Root cause: their endpoint took 35 seconds [1]';
    const question = 'How long did the endpoint take to answer in HIP-3?';
    const resolved = ['How long did EMEA take to answer in HIP-3?', 'How long did Root take to answer in HIP-3?'];
    const { update } = await evidenceGate(
      run(listed, { sub_questions: [question, ...resolved], hop_chains: [{ resolved }] }),
      { evidenceGate: 'enforce' },
    );
    expect(update.answer?.answer).toMatch(/^35 seconds\. Root cause/);
  });

  it('with the gate off, records its verdict and leaves the answer as produced', async () => {
    const result = await evidenceGate(run('The endpoint was slow. [1]', { mode: 'model' }), { evidenceGate: 'off' });
    expect(result.update).toEqual({});
    expect(result.summary).toMatch(/^off \(agents\.evidenceGate\): would refuse/);
  });
});
