import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../config/schema.ts';
import type { Principal } from '../../../domain/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { createTableQueryTool, describeTables, formatCell } from './table-query.ts';
import { tableQuestionToSql } from '../../table-sql/table-question-to-sql.ts';
import { loadTableSchemas, type TableSchema } from '../../table-sql/table-schemas.ts';

const CSV = resolve(import.meta.dirname, '../../../../samples/corpus/finance/orders-q1.csv');
const ADMIN: Principal = { id: 'local', groups: [], roles: ['admin'] };
const OUTSIDER: Principal = { id: 'mallory', groups: [], roles: ['member'] };

const root = mkdtempSync(join(tmpdir(), 'evident-table-tools-'));
let evident: Evident;
let schemas: TableSchema[];
let ordersTable = '';

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  const summary = await evident.ingestor.ingest([CSV]);
  expect(summary).toMatchObject({ added: 1, failed: 0 });
  schemas = await loadTableSchemas(evident.store, ADMIN);
  ordersTable = schemas[0]?.sqlName ?? '';
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

/** Plans the question offline, runs it through the tool, returns the single result cell (or the grouped rows). */
async function answer(question: string): Promise<{ sql: string; rows: unknown[][] }> {
  const plan = tableQuestionToSql(question, schemas);
  expect(plan, question).toBeDefined();
  const tool = createTableQueryTool({ store: evident.store });
  const output = await tool.invoke({ sql: plan?.sql }, ADMIN);
  if (!output.ok) throw new Error(`${question}: ${output.summary}`);
  return { sql: output.sql, rows: output.rows };
}

describe('table tools on the sample orders CSV, ingested through the pipeline', () => {
  it('ingested one typed table with the text values the strategy matches against', () => {
    expect(schemas).toHaveLength(1);
    const [table] = schemas;
    expect(table?.columns).toContainEqual({ name: 'order_total_usd', type: 'real' });
    expect(table?.values?.status).toEqual(expect.arrayContaining(['shipped', 'cancelled', 'pending']));
    expect(describeTables(schemas)).toContain('"order_total_usd" real');
  });

  it('sums a named column over the rows a value selects', async () => {
    // By hand from the CSV: 1250.50 + 980.00 + 2200.00 + 615.20 + 3120.00 + 540.00 + 2750.40 + 1330.00.
    const { sql, rows } = await answer('What is the total order_total_usd of shipped orders?');
    expect(sql).toContain('SUM("order_total_usd")');
    expect(sql).toContain(`"status" IN ('shipped')`);
    expect(rows[0]?.[0]).toBeCloseTo(12786.1, 6);
    const described = await answer('What is the total order value in USD of shipped orders?');
    expect(described.rows[0]?.[0]).toBeCloseTo(12786.1, 6);
  });

  it('counts, takes extremes and averages', async () => {
    expect((await answer('How many orders did Acme place?')).rows).toEqual([[3]]);
    expect((await answer('Which is the largest order_total_usd?')).rows).toEqual([[4310.75]]);
    expect((await answer('What is the lowest order total in USD?')).rows).toEqual([[540]]);
    expect((await answer('How many orders are there?')).rows).toEqual([[10]]);
    // (1250.50 + 2200.00 + 540.00) / 3 for Acme.
    expect((await answer('What is the average order_total_usd for Acme?')).rows[0]?.[0]).toBeCloseTo(1330.1666667, 6);
  });

  it('filters with an explicit where clause and groups per column', async () => {
    // APAC: 615.20 + 1899.99 + 1330.00.
    const apac = await answer('Sum of order_total_usd where region is APAC');
    expect(apac.rows[0]?.[0]).toBeCloseTo(3845.19, 6);
    const perRegion = await answer('What is the total order_total_usd per region?');
    expect(perRegion.sql).toContain('GROUP BY "region"');
    const totals = Object.fromEntries(perRegion.rows.map((row) => [row[0], Number((row[1] as number).toFixed(2))]));
    // EMEA 1250.50 + 2200.00 + 540.00; NA 980.00 + 4310.75 + 3120.00 + 2750.40.
    expect(totals).toEqual({ APAC: 3845.19, EMEA: 3990.5, NA: 11161.15 });
    expect((await answer('How many orders per status?')).rows).toEqual([
      ['cancelled', 1],
      ['pending', 1],
      ['shipped', 8],
    ]);
  });

  it('gives up on questions it cannot turn into an aggregation', () => {
    expect(tableQuestionToSql('Who signed the contract CT-2024-0193?', schemas)).toBeUndefined();
    expect(tableQuestionToSql('What is the total headcount?', schemas)).toBeUndefined();
    expect(tableQuestionToSql('How many orders are there?', [])).toBeUndefined();
    // A count must be tied to the table (its name, a value, a grouping column), even when it is the only one.
    expect(tableQuestionToSql('How many AAPL shares does the treasury hold?', schemas)).toBeUndefined();
    expect(tableQuestionToSql('How many orders are there?', schemas)?.sql).toMatch(
      /^SELECT COUNT\(\*\) AS result FROM "tbl_/,
    );
  });

  it('returns refusals as observations and formats numbers without float noise', async () => {
    const tool = createTableQueryTool({ store: evident.store, limits: { maxRows: 3 } });
    const rows = await tool.invoke({ sql: `SELECT order_id FROM ${ordersTable} ORDER BY order_id` }, ADMIN);
    expect(rows).toMatchObject({ ok: true, truncated: true, rows: [['A-1001'], ['A-1002'], ['A-1003']] });
    // What the rows rest on, so a reader who loses the CSV's group has them withheld (runs/redact-for-reader.ts).
    expect(rows).toMatchObject({ doc_ids: ['orders-q1.csv'] });
    expect(rows.summary.split('\n')[0]).toBe('3+ rows (truncated); columns: order_id');
    const refused = await tool.invoke({ sql: 'SELECT * FROM documents' }, ADMIN);
    expect(refused).toMatchObject({ ok: false, error: { code: 'query_rejected' } });
    expect(refused.summary).toContain(ordersTable);
    expect(await tool.invoke({ sql: '' }, ADMIN)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await tool.invoke({ query: 'SELECT 1' }, ADMIN)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(formatCell(12786.100000000002)).toBe('12786.1');
    expect(formatCell(null)).toBe('NULL');
  });

  it('sees only the tables of documents the principal may see', async () => {
    await evident.ingestor.ingest([CSV], { acl: ['group:finance'], force: true });
    expect(await loadTableSchemas(evident.store, OUTSIDER)).toEqual([]);
    const tool = createTableQueryTool({ store: evident.store });
    const refused = await tool.invoke({ sql: `SELECT count(*) FROM ${ordersTable}` }, OUTSIDER);
    expect(refused).toMatchObject({ ok: false, error: { code: 'query_rejected' } });
    const member: Principal = { id: 'fin', groups: ['finance'], roles: ['member'] };
    expect(await tool.invoke({ sql: `SELECT count(*) FROM ${ordersTable}` }, member)).toMatchObject({
      ok: true,
      rows: [[10]],
    });
  });
});
