import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store/store.ts';
import { seededRandom as random } from '../seeded-random.ts';
import { ADMIN, documentWrite, ordersTable, unitVector } from './fixtures.ts';
import type { ConformanceSuite } from './suite.ts';

/** Ingested tables: registered with unique SQL names, dropped with their document (the document port). */
export function describeTables(suite: ConformanceSuite): void {
  describe('tables', () => {
    let store: Store;
    beforeEach(() => {
      store = suite.store;
    });

    it('registers tables with unique SQL names and drops them with their document', async () => {
      const next = random(11);
      await store.putDocument(
        documentWrite({
          docId: 'data/sales.xlsx',
          chunks: [{ text: 'sales rows', vector: unitVector(next) }],
          tables: [ordersTable('sales / Q1'), ordersTable('sales / Q2')],
        }),
      );
      await store.putDocument(
        documentWrite({
          docId: 'data/sales.csv',
          chunks: [{ text: 'sales csv', vector: unitVector(next) }],
          tables: [ordersTable('sales / Q1')],
        }),
      );
      const tables = await store.listTables(ADMIN);
      expect(tables.map((table) => [table.docId, table.title])).toEqual([
        ['data/sales.csv', 'sales / Q1'],
        ['data/sales.xlsx', 'sales / Q1'],
        ['data/sales.xlsx', 'sales / Q2'],
      ]);
      for (const table of tables) {
        expect(table.sqlName).toMatch(/^[a-z_][a-z0-9_]*$/);
        expect(table.columns).toEqual(ordersTable().columns);
        expect(table.rowCount).toBe(3);
      }
      expect(new Set(tables.map((table) => table.sqlName)).size).toBe(3);
      expect((await store.stats()).tables).toBe(3);

      expect(await store.deleteDocument('data/sales.xlsx')).toBe(true);
      expect((await store.listTables(ADMIN)).map((table) => table.docId)).toEqual(['data/sales.csv']);
      // Replacing with a version without tables drops the old ones.
      await store.putDocument(
        documentWrite({ docId: 'data/sales.csv', chunks: [{ text: 'no table now', vector: unitVector(next) }] }),
      );
      expect(await store.listTables(ADMIN)).toEqual([]);
      expect((await store.stats()).tables).toBe(0);
    });

    it('keeps a table’s caption as its description, and none where the document gives none', async () => {
      const caption = 'Table 3: Variations on the Transformer architecture. Unlisted values are identical.';
      await store.putDocument(
        documentWrite({
          docId: 'papers/attention.pdf',
          chunks: [{ text: 'variations', vector: unitVector(random(13)) }],
          tables: [{ ...ordersTable('attention / page 9 / Table 3'), description: caption }, ordersTable('plain')],
        }),
      );
      const tables = await store.listTables(ADMIN);
      expect(tables.map((table) => [table.sqlName, table.description])).toEqual([
        ['tbl_papers_attention_pdf_p9_t3', caption],
        ['tbl_papers_attention_pdf_plain', undefined],
      ]);
    });

    it('keeps where a chunk’s table rows are printed, and gives them to a reader of the chunk only', async () => {
      const write = documentWrite({
        docId: 'papers/fees.pdf',
        acl: ['group:legal'],
        chunks: [
          { text: 'Contract: CT-1 | Fee: 9000', vector: unitVector(random(14)) },
          { text: 'prose', vector: unitVector(random(15)) },
        ],
      });
      const regions = [
        {
          page: 1,
          text: 'Contract: CT-1 | Fee: 9000',
          cells: [
            [72, 653.3, 98.9, 664.8],
            [220, 653.3, 241.5, 664.8],
          ] as [number, number, number, number][],
        },
      ];
      write.chunks[0] = { ...write.chunks[0]!, regions };
      await store.putDocument(write);
      const [row, prose] = await store.getChunks(['papers/fees.pdf#0', 'papers/fees.pdf#1'], ADMIN);
      expect(row?.regions).toEqual(regions);
      expect(prose?.regions).toBeUndefined();
      expect(await store.getChunks(['papers/fees.pdf#0'], { id: 'eve', groups: ['sales'], roles: ['member'] })).toEqual(
        [],
      );
    });

    it('makes duplicate or empty column names usable', async () => {
      await store.putDocument(
        documentWrite({
          docId: 'odd.csv',
          chunks: [{ text: 'odd', vector: unitVector(random(12)) }],
          tables: [
            {
              title: 'odd',
              columns: [
                { name: 'Name', type: 'text' },
                { name: 'name', type: 'text' },
                { name: '', type: 'integer' },
                { name: 'say "hi"', type: 'text' },
              ],
              rows: [['a', 'b', 1, 'c']],
            },
          ],
        }),
      );
      const [table] = await store.listTables(ADMIN);
      const names = table?.columns.map((column) => column.name) ?? [];
      expect(names).toHaveLength(4);
      expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(4);
      expect(names.every((name) => name.length > 0)).toBe(true);
      expect(names[0]).toBe('Name');
      expect(names[3]).toBe('say "hi"');
    });
  });
}
