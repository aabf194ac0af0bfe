import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { writeZip } from '../../testing/zip-writer.ts';
import { xlsxLoader } from './xlsx-loader.ts';

function workbook(sheets: Record<string, unknown[][]>): Buffer {
  const book = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets))
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

describe('xlsxLoader', () => {
  it('makes one typed table per sheet, titled `stem / sheet` in a workbook with several sheets', async () => {
    const bytes = workbook({
      Orders: [
        ['order_id', 'amount', 'shipped', 'date'],
        ['A-1001', 1250.5, true, new Date(Date.UTC(2024, 2, 1))],
        ['A-1002', 99, false, new Date(Date.UTC(2024, 2, 2))],
      ],
      Empty: [],
      Customers: [
        ['id', 'name'],
        [1, 'Acme'],
        [2, 'Beta'],
      ],
    });
    const doc = await xlsxLoader.load(bytes, '/data/Sales Q1.xlsx');
    expect(doc.tables?.map((table) => table.title)).toEqual(['Sales Q1 / Orders', 'Sales Q1 / Customers']);
    expect(doc.tables?.[0]?.columns).toEqual([
      { name: 'order_id', type: 'text' },
      { name: 'amount', type: 'real' },
      { name: 'shipped', type: 'boolean' },
      { name: 'date', type: 'text' },
    ]);
    expect(doc.tables?.[0]?.rows[0]).toEqual(['A-1001', 1250.5, true, '2024-03-01']);
    expect(doc.tables?.[1]).toMatchObject({
      columns: [
        { name: 'id', type: 'integer' },
        { name: 'name', type: 'text' },
      ],
      rows: [
        [1, 'Acme'],
        [2, 'Beta'],
      ],
    });
    expect(doc.blocks).toContainEqual({ kind: 'heading', level: 1, text: 'Sales Q1 / Customers — columns: id, name' });
    expect(doc.blocks).toContainEqual({ kind: 'row', text: 'id: 2 | name: Beta', table: 'Sales Q1 / Customers' });
    expect(doc.blocks.filter((block) => block.kind === 'row')).toHaveLength(4);
  });

  it('titles the table by the file stem when the workbook has one sheet', async () => {
    const doc = await xlsxLoader.load(workbook({ Sheet1: [['a'], [1]] }), '/data/metrics.xlsx');
    expect(doc.tables?.[0]?.title).toBe('metrics');
  });

  it('returns zero blocks for a workbook without data', async () => {
    expect(await xlsxLoader.load(workbook({ Sheet1: [] }), '/data/blank.xlsx')).toEqual({ blocks: [] });
  });

  it('refuses bytes that are not an xlsx workbook as file_corrupt', async () => {
    await expect(xlsxLoader.load(Buffer.from('a,b\n1,2\n'), '/data/fake.xlsx')).rejects.toMatchObject({
      code: 'file_corrupt',
    });
    await expect(xlsxLoader.load(writeZip([{ path: 'x.txt', data: 'x' }]), '/data/fake.xlsx')).rejects.toMatchObject({
      code: 'file_corrupt',
    });
    await expect(
      xlsxLoader.load(workbook({ S: [['a'], [1]] }).subarray(0, 300), '/data/cut.xlsx'),
    ).rejects.toMatchObject({
      code: 'file_corrupt',
    });
  });
});
