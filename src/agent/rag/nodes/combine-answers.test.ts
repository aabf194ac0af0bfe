import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../config/schema.ts';
import { answerSchema } from '../../../domain/answer.ts';
import type { Principal } from '../../../domain/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { RecordingChatModel, type RecordedCall } from '../../../testing/recording-chat-model.ts';
import { extractAndJudge, oneNeed, passageWith } from '../../../testing/rag-model-script.ts';
import { openAgent } from '../../../testing/agent-client.ts';

const OPS: Principal = { id: 'olga', groups: ['ops'], roles: ['member'] };
const QUESTION = 'What is the total weight_kg of delivered shipments, and when is a lost parcel reported?';

const root = mkdtempSync(join(tmpdir(), 'evident-both-route-'));
let evident: Evident;

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  const shipments = join(root, 'shipments.csv');
  writeFileSync(
    shipments,
    'shipment_id,carrier,weight_kg,state\nS-1,Dhl,12.5,delivered\nS-2,Ups,3,lost\nS-3,Dhl,7,delivered\n',
  );
  const guide = join(root, 'carrier-guide.md');
  writeFileSync(guide, '# Carrier events\n\nA lost parcel is reported after 10 days without a scan.\n');
  expect(await evident.ingestor.ingest([shipments, guide], { acl: ['group:ops'] })).toMatchObject({
    added: 2,
    failed: 0,
  });
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

const shipmentsTable = (call: RecordedCall): string =>
  /^(\S+) \(\d+ rows, from shipments\.csv\)/m.exec(call.prompt)?.[1] ?? 'missing';

describe('rag with a model: the both route (a table value and text together)', () => {
  it('computes the value in SQL, answers the rest from the text, and cites both', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      () => ({ route: 'both', reason: 'a sum over the table and a rule stated in the guide' }),
      (call) => ({ sql: `SELECT SUM("weight_kg") AS total FROM ${shipmentsTable(call)} WHERE "state" = 'delivered'` }),
      extractAndJudge('10 days', 0.9),
      (call) => {
        const passage = passageWith(call, '10 days') ?? { chunk_id: 'missing', doc_id: 'missing' };
        return {
          answer: 'A lost parcel is reported after 10 days without a scan. [1]',
          answerable: true,
          confidence: 0.8,
          citations: [
            {
              chunk_id: passage.chunk_id,
              doc_id: passage.doc_id,
              source: passage.doc_id,
              quote: 'reported after 10 days without a scan',
            },
          ],
          missing_information: [],
        };
      },
    ]);
    const agent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });
    try {
      const run = await agent.ask({ question: QUESTION, principal: OPS });
      expect(run.status).toBe('answered');
      expect(answerSchema.safeParse(run.answer).success).toBe(true);
      expect(model.calls.map((call) => call.schemaName)).toEqual([
        'sub_questions',
        'route',
        'table_sql',
        'answerability',
        'answer',
      ]);
      const nodes = run.steps.map((step) => step.node);
      expect(nodes).toEqual(expect.arrayContaining(['table_query', 'retrieve', 'generate', 'combine_answers']));
      // 12.5 + 7, from SQL; the rule, from the guide.
      expect(run.answer?.answer).toMatch(/19\.5[\s\S]*10 days without a scan/);
      const docs = run.answer?.citations.map((citation) => citation.doc_id);
      expect(docs).toEqual(expect.arrayContaining(['shipments.csv', 'carrier-guide.md']));
      // The text answer's marker moved past the table's own citations.
      const tableCitations =
        run.answer?.citations.filter((citation) => citation.doc_id === 'shipments.csv').length ?? 0;
      expect(run.answer?.answer).toContain(`[${tableCitations + 1}]`);
      expect(run.evidence_ids).toEqual(
        expect.arrayContaining(run.answer?.citations.map((citation) => citation.chunk_id) ?? []),
      );
    } finally {
      await agent.close();
    }
  });

  it('keeps the table value answered when the text part is refused, naming what is missing', async () => {
    const model = new RecordingChatModel([
      oneNeed,
      () => ({ route: 'both', reason: 'a sum and a rule' }),
      (call) => ({ sql: `SELECT SUM("weight_kg") AS total FROM ${shipmentsTable(call)} WHERE "state" = 'delivered'` }),
      extractAndJudge('insurance', 0.2, ['how lost parcels are insured']),
    ]);
    const agent = await openAgent(evident, 'rag', { chat: { id: 'recording:test', model } });
    try {
      const run = await agent.ask({
        question: 'What is the total weight_kg of delivered shipments, and how are lost parcels insured?',
        principal: OPS,
      });
      expect(run.status).toBe('answered');
      expect(run.answer?.answer).toContain('19.5');
      expect(run.answer?.missing_information).toEqual(['how lost parcels are insured']);
      expect(run.answer?.citations.every((citation) => citation.doc_id === 'shipments.csv')).toBe(true);
    } finally {
      await agent.close();
    }
  });
});
