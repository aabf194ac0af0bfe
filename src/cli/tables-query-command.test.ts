import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPdf, pdfTableLines } from '../testing/pdf-builder.ts';
import { runCli } from '../testing/run-cli.ts';

let dir: string;
const cli = (...args: string[]) => runCli(['--db', join(dir, 'store.db'), ...args]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-tables-query-'));
  const pdf = buildPdf([
    [
      { text: 'Budget 2025', size: 18, bold: true },
      { text: 'Table 1: Spend by team', y: 700 },
      ...pdfTableLines(
        [
          ['Team', 'Spend', 'Heads'],
          ['Platform', '$1,200', '8'],
          ['Search', '$950', '5'],
          ['Support', '$400', '6'],
        ],
        { columns: [72, 200, 300], top: 680 },
      ),
    ],
  ]);
  await writeFile(join(dir, 'budget.pdf'), pdf);
  const ingest = await cli('ingest', join(dir, 'budget.pdf'), '--acl', 'group:finance');
  expect(ingest.code).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evident tables query', () => {
  it('lists a PDF table and answers a SELECT over it as a reader of the document', async () => {
    const list = await cli('tables', 'list', '--groups', 'finance', '--json');
    const tables = JSON.parse(list.stdout) as { sql_name: string; title: string }[];
    expect(tables.map((table) => table.title)).toEqual(['budget / page 1 / Table 1']);
    const sql = `SELECT "Team", "Spend ($)" FROM ${tables[0]!.sql_name} WHERE "Heads" > 5 ORDER BY "Spend ($)" DESC`;
    const run = await cli('tables', 'query', sql, '--groups', 'finance');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      ['Team      Spend ($)', '--------  ---------', 'Platform  1200', 'Support   400', ''].join('\n'),
    );
    const json = await cli('tables', 'query', sql, '--groups', 'finance', '--json');
    expect(JSON.parse(json.stdout)).toEqual({
      columns: ['Team', 'Spend ($)'],
      rows: [
        ['Platform', 1200],
        ['Support', 400],
      ],
      truncated: false,
    });
  });

  it('refuses a reader outside the ACL without naming the table, and an empty query with what to do', async () => {
    const list = await cli('tables', 'list', '--groups', 'finance', '--json');
    const name = (JSON.parse(list.stdout) as { sql_name: string }[])[0]!.sql_name;
    const outsider = await cli('tables', 'query', `SELECT * FROM ${name}`, '--groups', 'sales');
    expect(outsider.code).not.toBe(0);
    expect(outsider.stdout).toBe('');
    expect(outsider.stderr).toContain('none are visible to you');
    expect(outsider.stderr).not.toContain('budget');
    const empty = await cli('tables', 'query', '  ');
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toMatch(/SELECT/);
  });
});
