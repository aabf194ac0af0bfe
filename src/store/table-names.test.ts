import { describe, expect, it } from 'vitest';
import { sqlSlug, tableSqlName, uniqueColumnNames } from './table-names.ts';

describe('table naming', () => {
  it('slugs names to plain identifiers', () => {
    expect(sqlSlug('Finance/Q1 Report.xlsx')).toBe('finance_q1_report_xlsx');
    expect(sqlSlug('Café — "Ventes"; DROP TABLE x')).toBe('cafe_ventes_drop_table_x');
    expect(sqlSlug('合同')).toBe('');
  });

  it('combines doc and title, skips a repeated stem, resolves collisions, bounds the length', () => {
    const taken = new Set<string>();
    const name = (docId: string, title: string) => {
      const chosen = tableSqlName(docId, title, (candidate) => taken.has(candidate.toLowerCase()));
      taken.add(chosen);
      return chosen;
    };
    expect(name('data/orders.csv', 'orders')).toBe('tbl_data_orders_csv');
    expect(name('data/orders.csv', 'orders')).toBe('tbl_data_orders_csv_2');
    expect(name('book.xlsx', 'book / Sheet 1')).toBe('tbl_book_xlsx_book_sheet_1');
    expect(name('合同.csv', '合同')).toBe('tbl_csv');
    expect(name('表.csv', '表')).toBe('tbl_csv_2');
    const long = name('x'.repeat(200), 'y');
    expect(long.length).toBeLessThanOrEqual(60);
    expect(name('x'.repeat(200), 'y')).toMatch(/_2$/);
  });

  it('makes column names unique and non-empty', () => {
    expect(uniqueColumnNames(['Name', 'name', '', 'NAME', 'a\tb'])).toEqual([
      'Name',
      'name_2',
      'column_3',
      'NAME_3',
      'a b',
    ]);
  });
});
