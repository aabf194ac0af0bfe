import { describe, expect, it } from 'vitest';
import { csvLoader } from './csv-loader.ts';
import { inferColumnType } from './tables.ts';

const load = (text: string, path = '/data/orders.csv') => csvLoader.load(Buffer.from(text, 'utf8'), path);

describe('csvLoader', () => {
  it('makes a typed table and one row block per record under a heading naming the columns', async () => {
    const doc = await load(
      '\ufefforder_id,customer,order_total_usd,quantity,paid\r\nA-1001,Acme,1250.50,3,true\r\nA-1002,"Beta, Inc.",99,1,FALSE\r\nA-1003,Gamma,,2,\r\n',
    );
    expect(doc.tables).toEqual([
      {
        title: 'orders',
        columns: [
          { name: 'order_id', type: 'text' },
          { name: 'customer', type: 'text' },
          { name: 'order_total_usd', type: 'real' },
          { name: 'quantity', type: 'integer' },
          { name: 'paid', type: 'boolean' },
        ],
        rows: [
          ['A-1001', 'Acme', 1250.5, 3, true],
          ['A-1002', 'Beta, Inc.', 99, 1, false],
          ['A-1003', 'Gamma', null, 2, null],
        ],
      },
    ]);
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'orders — columns: order_id, customer, order_total_usd, quantity, paid' },
      {
        kind: 'row',
        text: 'order_id: A-1001 | customer: Acme | order_total_usd: 1250.50 | quantity: 3 | paid: true',
        table: 'orders',
      },
      {
        kind: 'row',
        text: 'order_id: A-1002 | customer: Beta, Inc. | order_total_usd: 99 | quantity: 1 | paid: FALSE',
        table: 'orders',
      },
      { kind: 'row', text: 'order_id: A-1003 | customer: Gamma | quantity: 2', table: 'orders' },
    ]);
  });

  it('detects ; and tab delimiters and names empty or repeated headers', async () => {
    const doc = await load('name;;name\nAnn;1;x\n', '/data/people.csv');
    expect(doc.tables?.[0]?.columns.map((column) => column.name)).toEqual(['name', 'column_2', 'name_2']);
    const tsv = await load('a\tb\n1\t2\n', '/data/t.tsv');
    expect(tsv.tables?.[0]?.rows).toEqual([[1, 2]]);
  });

  it('returns zero blocks and no table for an empty CSV; refuses invalid UTF-8', async () => {
    expect(await load('\n\n')).toEqual({ blocks: [] });
    await expect(
      csvLoader.load(Buffer.from([0x61, 0x2c, 0x62, 0x0a, 0xff, 0x2c, 0x31]), '/data/x.csv'),
    ).rejects.toMatchObject({
      code: 'file_encoding',
    });
  });

  it('keeps a header-only CSV as an empty table so its schema is searchable', async () => {
    const doc = await load('sku,price\n');
    expect(doc.tables?.[0]).toEqual({
      title: 'orders',
      columns: [
        { name: 'sku', type: 'text' },
        { name: 'price', type: 'text' },
      ],
      rows: [],
    });
    expect(doc.blocks).toHaveLength(1);
  });
});

describe('inferColumnType', () => {
  it('infers from all values and keeps leading zeros as text', () => {
    expect(inferColumnType(['1', '-2', ''])).toBe('integer');
    expect(inferColumnType(['1', '2.5', '1e3'])).toBe('real');
    expect(inferColumnType(['true', 'False'])).toBe('boolean');
    expect(inferColumnType(['007', '8'])).toBe('text');
    expect(inferColumnType(['1,250.50'])).toBe('text');
    expect(inferColumnType(['1', 'x'])).toBe('text');
    expect(inferColumnType(['', ''])).toBe('text');
    expect(inferColumnType(['99999999999999999999'])).toBe('real');
  });
});
