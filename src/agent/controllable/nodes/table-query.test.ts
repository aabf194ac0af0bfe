import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../config/schema.ts';
import { answerSchema } from '../../../domain/answer.ts';
import type { Principal } from '../../../domain/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { nodesOf, runControllable } from '../../../testing/controllable-run.ts';

const OPS: Principal = { id: 'olga', groups: ['ops'], roles: ['member'] };
const GUEST: Principal = { id: 'gus', groups: ['guests'], roles: ['member'] };

const root = mkdtempSync(join(tmpdir(), 'evident-controllable-table-'));
let evident: Evident;

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  const shipments = join(root, 'shipments.csv');
  writeFileSync(
    shipments,
    'shipment_id,carrier,weight_kg,state\nS-1,Dhl,12.5,delivered\nS-2,Ups,3,lost\nS-3,Dhl,7,delivered\nS-4,Fedex,9.25,delivered\n',
  );
  expect(await evident.ingestor.ingest([shipments], { acl: ['group:ops'] })).toMatchObject({ added: 1, failed: 0 });
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

describe('controllable table_query task over a real SQLite store (offline)', () => {
  it('computes a sum in SQL and cites the table lines of the rows it summed', async () => {
    // By hand: 12.5 + 7 + 9.25 (the delivered rows).
    const run = await runControllable(evident, 'What is the total weight_kg of delivered shipments?', OPS);
    const state = run.state;
    expect(nodesOf(run)).toContain('table_query');
    expect(state.status).toBe('answered');
    expect(answerSchema.safeParse(state.answer).success).toBe(true);
    expect(state.answer?.answer).toContain('28.75');
    expect(state.tool_calls).toEqual([
      expect.objectContaining({
        name: 'table_query',
        ok: true,
        arguments: { sql: expect.stringContaining('SUM("weight_kg")') },
      }),
    ]);
    const citations = state.answer?.citations ?? [];
    expect(citations.map((citation) => citation.quote)).toEqual([
      'shipment_id: S-1 | carrier: Dhl | weight_kg: 12.5 | state: delivered',
      'shipment_id: S-3 | carrier: Dhl | weight_kg: 7 | state: delivered',
      'shipment_id: S-4 | carrier: Fedex | weight_kg: 9.25 | state: delivered',
    ]);
    // Every citation points at run evidence, and quotes its chunk.
    for (const citation of citations) {
      const chunk = state.evidence.find((item) => item.chunk_id === citation.chunk_id);
      expect(chunk?.doc_id).toBe('shipments.csv');
      expect(chunk?.text).toContain(citation.quote);
    }
  });

  it('shows and cites the one row a lookup read', async () => {
    const run = await runControllable(evident, 'Which carrier took shipment S-2?', OPS);
    expect(run.state.answer?.answer).toContain('Ups');
    expect(run.state.answer?.citations.map((citation) => citation.quote)).toEqual([
      'shipment_id: S-2 | carrier: Ups | weight_kg: 3 | state: lost',
    ]);
  });

  it('never queries or cites a table the principal may not read', async () => {
    const run = await runControllable(evident, 'What is the total weight_kg of delivered shipments?', GUEST);
    expect(nodesOf(run)).not.toContain('table_query');
    expect(run.state.tool_calls.some((call) => call.name === 'table_query')).toBe(false);
    expect(run.state.evidence.some((item) => item.doc_id === 'shipments.csv')).toBe(false);
    expect(run.state.answer?.answerable).toBe(false);
  });
});
