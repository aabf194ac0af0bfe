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
    expect(name('book.xlsx', 'book / Sheet 1')).toBe('tbl_book_xlsx_sheet_1');
    expect(name('papers/bert.pdf', 'bert / page 6 / Table 1')).toBe('tbl_papers_bert_pdf_p6_t1');
    expect(name('papers/bert.pdf', 'bert / page 16 / Table IV')).toBe('tbl_papers_bert_pdf_p16_tiv');
    // Cut at a word, with a hash of the whole name: two long names that share their start stay apart.
    const attention = name(
      'papers/attention-is-all-you-need-by-vaswani-1706.03762v7.pdf',
      'attention / page 9 / Table 3',
    );
    expect(attention).toMatch(/^tbl_papers_attention_is_all_you_need_by_[0-9a-f]{8}_p9_t3$/);
    expect(attention.length).toBeLessThanOrEqual(60);
    expect(
      name('papers/attention-is-all-you-need-by-vaswani-1706.03762v7.pdf', 'attention / page 9 / Table 4'),
    ).not.toBe(attention);
    expect(name('合同.csv', '合同')).toBe('tbl_csv');
    expect(name('表.csv', '表')).toBe('tbl_csv_2');
    const long = name('x'.repeat(200), 'y');
    expect(long.length).toBeLessThanOrEqual(60);
    expect(name('x'.repeat(200), 'y')).toMatch(/_2$/);
    expect(name('x'.repeat(200), 'y')).toMatch(/_3$/);
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
