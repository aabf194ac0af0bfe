import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../config/schema.ts';
import type { Evidence } from '../../../domain/evidence.ts';
import type { Principal } from '../../../domain/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { evidenceFrom } from '../evidence-from.ts';
import { evidenceGate, type GatedRun } from '../nodes/evidence-gate.ts';
import { createTableQueryTool } from './table-query.ts';
import { agreesWith } from './table-recheck.ts';

const CSV = resolve(import.meta.dirname, '../../../../samples/corpus/finance/orders-q1.csv');
const ADMIN: Principal = { id: 'local', groups: [], roles: ['admin'] };
const OUTSIDER: Principal = { id: 'mallory', groups: [], roles: ['member'] };
const FINANCE: Principal = { id: 'fin', groups: ['finance'], roles: ['member'] };

const root = mkdtempSync(join(tmpdir(), 'evident-table-recheck-'));
let evident: Evident;
let table: Evidence;

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  expect(await evident.ingestor.ingest([CSV], { acl: ['group:finance'] })).toMatchObject({ added: 1, failed: 0 });
  const [docId] = (await evident.store.listTables(ADMIN)).map((record) => record.docId);
  const [chunk] = await evident.store.getChunks([`${docId}#0`], ADMIN);
  if (!chunk) throw new Error('the orders table has no chunk');
  table = evidenceFrom(chunk, 1, []);
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

/** A model's answer citing one row of the orders table, as a run hands it to the gate. */
function modelRun(question: string, answer: string, principal: Principal | null = FINANCE): GatedRun {
  const row = table.text.split('\n').find((line) => line.includes('A-1004')) ?? '';
  return {
    question,
    standalone_question: '',
    sub_questions: [],
    evidence: [table],
    answer: {
      answer: `${answer} [1]`,
      answerable: true,
      confidence: 0.95,
      citations: [{ chunk_id: table.chunk_id, doc_id: table.doc_id, source: table.source, quote: row.trim() }],
      missing_information: [],
    },
    tool_calls: [],
    status: 'running',
    mode: 'openai:fake-model',
    principal,
  };
}

const gate = (run: GatedRun) =>
  evidenceGate(run, { evidenceGate: 'enforce', store: evident.store, tableQuery: createTableQueryTool(evident) });

describe('the evidence gate recomputes a value no cited row states over the cited table', () => {
  it('lets a model count through when the table computes the same count, and records the query it ran', async () => {
    const question = 'How many orders did Acme place?';
    const result = await gate(modelRun(question, '3'));
    expect(result.summary).toMatch(/^answer: recomputed over the cited table: .*count.*: 3$/);
    expect(result.update.answer?.answerable).toBe(true);
    expect(result.update.answer?.confidence).toBe(0.85);
    expect(result.update.tool_calls?.map((call) => call.name)).toEqual(['table_query']);
  });

  it('refuses a count the table does not compute', async () => {
    const result = await gate(modelRun('How many orders did Acme place?', '4'));
    expect(result.update.answer?.answerable).toBe(false);
    expect(result.update.tool_calls).toBeUndefined();
  });

  it('takes a row the computation selects, written with words around it', async () => {
    const result = await gate(modelRun('Which customer placed the largest order_total_usd?', 'Initech'));
    expect(result.summary).toMatch(/^answer: recomputed/);
    expect((await gate(modelRun('Which customer placed the largest order_total_usd?', 'Acme'))).summary).toMatch(
      /^refused/,
    );
  });

  it('recomputes nothing for a reader who may not see the table (it fails closed)', async () => {
    // The run's principal is read again before the gate: one who lost the finance group since retrieval.
    const result = await gate(modelRun('How many orders did Acme place?', '3', OUTSIDER));
    expect(result.update.answer?.answerable).toBe(false);
    expect(result.update.tool_calls).toBeUndefined();
  });
});

describe('agreesWith', () => {
  it('reads the same number, or the computed cell named whole in a short answer', () => {
    expect(agreesWith('26', '26')).toBe(true);
    expect(agreesWith('26 games.', '26')).toBe(true);
    expect(agreesWith('1,250', '1250')).toBe(true);
    expect(agreesWith('2012', '2')).toBe(false);
    expect(agreesWith('2 or 3', '2')).toBe(false);
    expect(agreesWith('1983-1984 season', '1983-1984')).toBe(true);
    expect(agreesWith('Acmeco', 'Acme')).toBe(false);
    expect(agreesWith('The orders of Acme were shipped in the first quarter.', 'Acme')).toBe(false);
  });
});
