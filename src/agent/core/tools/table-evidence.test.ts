import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../../config/schema.ts';
import type { Principal } from '../../../domain/index.ts';
import { createEvident, type Evident } from '../../../evident.ts';
import { CITED_ROWS, rowsSql, tableEvidence } from './table-evidence.ts';

const ADMIN: Principal = { id: 'local', groups: [], roles: ['admin'] };
const OUTSIDER: Principal = { id: 'mallory', groups: [], roles: ['member'] };

// Cells written as a spreadsheet exports them: "12.50" is the real 12.5, an empty cell is left out of its row line.
const CSV = [
  'ticket,team,hours,state',
  'T-1,core,12.50,open',
  'T-2,web,3,closed',
  'T-3,core,7.25,open',
  'T-4,web,,open',
  'T-5,data,20,closed',
  'T-6,core,1,closed',
  'T-7,core,2,closed',
  'T-8,core,4,closed',
  'T-9,core,6,closed',
].join('\n');

const root = mkdtempSync(join(tmpdir(), 'evident-table-evidence-'));
let evident: Evident;
let table = '';

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  const file = join(root, 'tickets.csv');
  writeFileSync(file, `${CSV}\n`);
  expect(await evident.ingestor.ingest([file], { acl: ['group:ops'] })).toMatchObject({ added: 1, failed: 0 });
  table = (await evident.store.listTables(ADMIN))[0]?.sqlName ?? '';
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

describe('rowsSql: the rows a result was computed from', () => {
  it('keeps a lookup’s filter, order and limit, and selects every column', () => {
    const rows = rowsSql(
      `SELECT DISTINCT "team" AS result FROM "t" WHERE "ticket" IN ('T-3') AND "team" IS NOT NULL LIMIT 20`,
      'sqlite',
    );
    expect(rows?.table).toBe('t');
    expect(rows?.sql).toMatch(/^SELECT \* FROM "t" WHERE "ticket" IN \('T-3'\)/);
    expect(rows?.sql).toContain(`LIMIT ${CITED_ROWS + 1}`);
  });

  it('orders by the measured value for MAX/MIN and names no rows for a whole-table sum or a GROUP BY', () => {
    expect(rowsSql('SELECT MAX("hours") AS result FROM "t"', 'sqlite')?.sql).toMatch(/ORDER BY "hours" DESC LIMIT 1$/);
    expect(rowsSql('SELECT SUM("hours") AS result FROM "t"', 'sqlite')).toBeUndefined();
    expect(rowsSql('SELECT "team", COUNT(*) FROM "t" GROUP BY "team"', 'sqlite')).toBeUndefined();
    expect(rowsSql('SELECT * FROM "a" JOIN "b" ON "a"."x" = "b"."x"', 'sqlite')).toBeUndefined();
  });
});

describe('tableEvidence on a real SQLite store', () => {
  it('cites the chunk line of the one row a lookup read, quoting the chunk', async () => {
    const cited = await tableEvidence(
      `SELECT "hours" FROM "${table}" WHERE "ticket" = 'T-1'`,
      ADMIN,
      evident.store,
      'hours of T-1',
    );
    expect(cited.rows).toEqual(['ticket: T-1 | team: core | hours: 12.50 | state: open']);
    expect(cited.citations).toHaveLength(1);
    const [citation] = cited.citations;
    const chunk = cited.evidence.find((item) => item.chunk_id === citation?.chunk_id);
    expect(chunk?.doc_id).toBe('tickets.csv');
    expect(chunk?.text).toContain(citation?.quote);
  });

  it('finds a row with an empty cell and the row a MAX picked', async () => {
    const empty = await tableEvidence(
      `SELECT "state" FROM "${table}" WHERE "ticket" = 'T-4'`,
      ADMIN,
      evident.store,
      'q',
    );
    expect(empty.rows).toEqual(['ticket: T-4 | team: web | state: open']);
    const max = await tableEvidence(`SELECT MAX("hours") FROM "${table}"`, ADMIN, evident.store, 'q');
    expect(max.rows).toEqual(['ticket: T-5 | team: data | hours: 20 | state: closed']);
  });

  it('bounds the rows an aggregate cites, and adds the table heading when more matched', async () => {
    const cited = await tableEvidence(
      `SELECT COUNT(*) FROM "${table}" WHERE "team" = 'core'`,
      ADMIN,
      evident.store,
      'q',
    );
    expect(cited.more).toBe(true);
    expect(cited.rows).toHaveLength(CITED_ROWS);
    expect(cited.rows.every((row) => row.includes('team: core'))).toBe(true);
    expect(cited.citations[0]?.quote).toBe('tickets — columns: ticket, team, hours, state');
  });

  it('cites the heading for a sum over every row', async () => {
    const cited = await tableEvidence(`SELECT SUM("hours") FROM "${table}"`, ADMIN, evident.store, 'q');
    expect(cited.rows).toEqual([]);
    expect(cited.citations.map((citation) => citation.quote)).toEqual([
      'tickets — columns: ticket, team, hours, state',
    ]);
  });

  it('cites nothing to a principal who may not read the table', async () => {
    const cited = await tableEvidence(
      `SELECT "hours" FROM "${table}" WHERE "ticket" = 'T-1'`,
      OUTSIDER,
      evident.store,
      'q',
    );
    expect(cited).toEqual({ evidence: [], citations: [], rows: [], more: false });
  });
});
