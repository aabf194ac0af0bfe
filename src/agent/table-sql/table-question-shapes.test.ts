import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.ts';
import type { Principal } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { createTableQueryTool } from '../core/tools/table-query.ts';
import { tableQuestionToSql } from './table-question-to-sql.ts';
import type { TableQuestionShape } from './table-question-to-sql-write.ts';
import { loadTableSchemas, type TableSchema } from './table-schemas.ts';

const ADMIN: Principal = { id: 'local', groups: [], roles: ['admin'] };

// Values chosen so that every shape has one right answer, worked out by hand below.
const INVENTORY = [
  'product,category,price,sales,warehouse',
  'Laptop,electronics,1200,5,north',
  'Phone,electronics,800,12,south',
  'Desk,furniture,300,7,north',
  'Chair,furniture,150,20,south',
  'Lamp,furniture,40,15,north',
  'Monitor,electronics,250,9,north',
].join('\n');
// A table written in Chinese: its own names and cells are what a Chinese question names.
const CITIES = [
  '城市,省份,人口',
  '广州,广东,1880',
  '深圳,广东,1770',
  '杭州,浙江,1250',
  '宁波,浙江,960',
  '成都,四川,2140',
].join('\n');

const root = mkdtempSync(join(tmpdir(), 'evident-table-shapes-'));
let evident: Evident;
let inventory: TableSchema[];
let cities: TableSchema[];

beforeAll(async () => {
  evident = await createEvident(configSchema.parse({ db: join(root, 'evident.db') }));
  writeFileSync(join(root, 'inventory.csv'), `${INVENTORY}\n`);
  writeFileSync(join(root, 'cities.csv'), `${CITIES}\n`);
  expect(await evident.ingestor.ingest([join(root, 'inventory.csv'), join(root, 'cities.csv')])).toMatchObject({
    added: 2,
    failed: 0,
  });
  const schemas = await loadTableSchemas(evident.store, ADMIN);
  inventory = schemas.filter((table) => table.docId === 'inventory.csv');
  cities = schemas.filter((table) => table.docId === 'cities.csv');
  expect(inventory).toHaveLength(1);
  expect(cities).toHaveLength(1);
});
afterAll(async () => {
  await evident.close();
  rmSync(root, { recursive: true, force: true });
});

/** Plans the question over one table, runs the SQL through the tool, returns the shape and the rows. */
async function ask(
  question: string,
  tables: readonly TableSchema[],
): Promise<{ shape: TableQuestionShape; rows: unknown[][] }> {
  const plan = tableQuestionToSql(question, tables);
  expect(plan, question).toBeDefined();
  const output = await createTableQueryTool({ store: evident.store }).invoke({ sql: plan?.sql }, ADMIN);
  if (!output.ok) throw new Error(`${question}: ${output.summary}`);
  return { shape: plan?.aggregate as TableQuestionShape, rows: output.rows };
}

const cell = (rows: unknown[][]): unknown => rows[0]?.at(-1);

describe.each([
  [
    'English',
    {
      count: 'How many products are in the furniture category?',
      sum: 'What is the total sales of electronics?',
      average: 'What is the average price of furniture?',
      max: 'What is the highest price?',
      min: 'What is the lowest price?',
      filter: 'Which warehouse holds the Desk?',
      group: 'What is the total sales per warehouse?',
      most: 'Which product has the most sales?',
    },
  ],
  [
    'Chinese',
    {
      count: 'furniture 的产品有多少个？',
      sum: 'electronics 的 sales 总和是多少？',
      average: 'furniture 的平均价格是多少？',
      max: '最高价格是多少？',
      min: '最低价格是多少？',
      filter: 'Desk 的 warehouse 是什么？',
      group: '每个 warehouse 的 sales 合计是多少？',
      most: '哪个产品的 sales 最多？',
    },
  ],
])('question→SQL shapes over an English table, asked in %s', (_language, questions) => {
  it('counts the rows a value selects', async () => {
    const { shape, rows } = await ask(questions.count, inventory);
    expect(shape).toBe('count');
    expect(cell(rows)).toBe(3);
  });

  it('sums a column over the rows a value selects', async () => {
    // 5 + 12 + 9.
    const { shape, rows } = await ask(questions.sum, inventory);
    expect(shape).toBe('sum');
    expect(cell(rows)).toBe(26);
  });

  it('averages a column over the rows a value selects', async () => {
    // (300 + 150 + 40) / 3.
    const { shape, rows } = await ask(questions.average, inventory);
    expect(shape).toBe('avg');
    expect(cell(rows)).toBeCloseTo(163.333, 3);
  });

  it('takes the maximum and the minimum of a column', async () => {
    const max = await ask(questions.max, inventory);
    expect(max.shape).toBe('max');
    expect(cell(max.rows)).toBe(1200);
    const min = await ask(questions.min, inventory);
    expect(min.shape).toBe('min');
    expect(cell(min.rows)).toBe(40);
  });

  it('looks up a cell of the row a value names', async () => {
    const { shape, rows } = await ask(questions.filter, inventory);
    expect(shape).toBe('lookup');
    expect(rows).toEqual([['north']]);
  });

  it('groups a sum by a column', async () => {
    // north: 5 + 7 + 15 + 9; south: 12 + 20.
    const { rows } = await ask(questions.group, inventory);
    expect(rows).toEqual([
      ['north', 36],
      ['south', 32],
    ]);
  });

  it('names the row with the most of a value', async () => {
    const { shape, rows } = await ask(questions.most, inventory);
    expect(shape).toBe('argmax');
    expect(rows).toEqual([['Chair']]);
  });
});

describe('question→SQL shapes over a Chinese table, asked in Chinese', () => {
  it('counts, sums and averages the rows a cell selects', async () => {
    const count = await ask('广东有多少个城市？', cities);
    expect(count.shape).toBe('count');
    expect(cell(count.rows)).toBe(2);
    // 1250 + 960.
    const sum = await ask('浙江的人口总和是多少？', cities);
    expect(sum.shape).toBe('sum');
    expect(cell(sum.rows)).toBe(2210);
    // (1880 + 1770) / 2.
    const avg = await ask('广东城市的平均人口是多少？', cities);
    expect(avg.shape).toBe('avg');
    expect(cell(avg.rows)).toBe(1825);
  });

  it('names the row with the most, groups by a column, and looks a cell up', async () => {
    expect((await ask('哪个城市人口最多？', cities)).rows).toEqual([['成都']]);
    expect((await ask('每个省份的人口合计是多少？', cities)).rows).toEqual(
      expect.arrayContaining([
        ['广东', 3650],
        ['浙江', 2210],
        ['四川', 2140],
      ]),
    );
    expect((await ask('宁波的省份是什么？', cities)).rows).toEqual([['浙江']]);
  });

  it('declines a Chinese condition it cannot read rather than plan without it', () => {
    // 江苏 is no cell and no word the strategy knows: planning without it would answer over every city.
    expect(tableQuestionToSql('江苏的人口总和是多少？', cities)).toBeUndefined();
    // 已付款 (paid) names no cell of the inventory table.
    expect(tableQuestionToSql('已付款产品的 sales 总和是多少？', inventory)).toBeUndefined();
  });
});
