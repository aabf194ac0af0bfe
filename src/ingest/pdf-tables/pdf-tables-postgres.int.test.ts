import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import type { Principal, TableRecord } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { withSchema } from '../../store/postgres/drop-store.ts';
import { openAgent } from '../../testing/agent-client.ts';
import { buildPdf, pdfTableLines } from '../../testing/pdf-builder.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';

const FIONA: Principal = { id: 'fiona', groups: ['finance'], roles: ['member'] };
const BOB: Principal = { id: 'bob', groups: ['engineering'], roles: ['member'] };
const LIMITS = { maxRows: 50, timeoutMs: 5_000 };

describeWithPostgres('PDF tables in PostgreSQL', (url) => {
  const schema = freshSchema('evident_pdf_tables');
  const root = mkdtempSync(join(tmpdir(), 'evident-pdf-tables-pg-'));
  let evident: Evident;
  let table: TableRecord;
  beforeAll(async () => {
    evident = await createEvident(loadConfig({ flags: { databaseUrl: withSchema(url, schema) }, env: {} }));
    const file = join(root, 'forecast.pdf');
    // A header on three lines under a group header: its joined name is longer than PostgreSQL's 63-byte identifiers.
    writeFileSync(
      file,
      buildPdf([
        [
          { text: 'Forecast review', size: 18, bold: true },
          { text: 'Table 2: Error by region', y: 710 },
          { text: 'Mean Absolute Forecasting Error Reduction (%)', x: 200, y: 690 },
          ...pdfTableLines(
            [
              ['Region', 'Development Set', 'Held Out Set', 'Revenue'],
              ['', 'Weighted By Volume', 'Weighted By Volume', ''],
              ['North', '12.5%', '11.0%', '$1,200'],
              ['South', '8.25%', '7.5%', '$950'],
              ['West', '3.0%', '2.75%', '$400'],
            ],
            { columns: [72, 200, 330, 460], top: 676 },
          ),
        ],
      ]),
    );
    expect(await evident.ingestor.ingest([file], { acl: ['group:finance'] })).toMatchObject({ added: 1, failed: 0 });
    [table] = (await evident.store.listTables(FIONA)) as [TableRecord];
  }, 60_000);
  afterAll(async () => {
    await evident?.close();
    await dropSchemas(url, [schema]);
    rmSync(root, { recursive: true, force: true });
  });

  it('stores the PDF table with its typed columns and answers a numeric query as the reader', async () => {
    expect(table.title).toBe('forecast / page 1 / Table 2');
    expect(table.columns.map((column) => column.type)).toEqual(['text', 'real', 'real', 'integer']);
    // The joined names are cut to 50 bytes by ingestion, so PostgreSQL holds them as they are and the row lines match.
    expect(table.columns.map((column) => column.name)).toEqual([
      'Region',
      'Mean Absolute Forecasting Error Reduction (%) Deve',
      'Mean Absolute Forecasting Error Reduction (%) Held',
      'Revenue ($)',
    ]);
    const [region, dev, , revenue] = table.columns.map((column) => `"${column.name.replaceAll('"', '""')}"`);
    const result = await evident.store.queryTables(
      `SELECT ${region}, ${revenue} FROM ${table.sqlName} WHERE ${dev} > 5 ORDER BY ${revenue} DESC`,
      FIONA,
      LIMITS,
    );
    expect(result.rows).toEqual([
      ['North', 1200],
      ['South', 950],
    ]);
  });

  it('the rag agent, offline, answers from the table in PostgreSQL and cites the row with its page', async () => {
    const agent = await openAgent(evident, 'rag');
    try {
      const run = await agent.ask({ question: 'What is the Revenue of North in Table 2?', principal: FIONA });
      expect(run.answer?.answer).toContain('1200');
      expect(run.answer?.citations).toEqual([
        expect.objectContaining({ page: 1, quote: expect.stringContaining('Region: North |') }),
      ]);
    } finally {
      await agent.close();
    }
  });

  it('shows another group neither the table nor its rows', async () => {
    expect(await evident.store.listTables(BOB)).toEqual([]);
    await expect(evident.store.queryTables(`SELECT * FROM ${table.sqlName}`, BOB, LIMITS)).rejects.toThrow(
      /none are visible to you/,
    );
  });
});
