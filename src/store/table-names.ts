import type { ColumnType } from '../domain/index.ts';

/** The names an ingested table gets, the same on every backend, so the table tools write the same SQL on both. */

const MAX_NAME = 60;

/** `Finance/Q1 Report.xlsx` → `finance_q1_report_xlsx`: lowercase ASCII letters, digits and single underscores. */
export function sqlSlug(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * A table name that is a plain identifier (no quoting needed by whoever writes SQL against it), starts with
 * `tbl_`, fits in `MAX_NAME` characters, and is not taken (`taken` compares case-insensitively, as SQLite does).
 */
export function tableSqlName(docId: string, title: string, taken: (name: string) => boolean): string {
  const docSlug = sqlSlug(docId);
  const titleSlug = sqlSlug(title);
  // Workbook sheets are titled `<file stem> / <sheet>`; the stem is already in the doc slug.
  const parts = [docSlug, titleSlug && !docSlug.includes(titleSlug) ? titleSlug : ''].filter(Boolean);
  const base = `tbl_${parts.join('_') || 'table'}`.slice(0, MAX_NAME).replace(/_+$/, '');
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${base.slice(0, MAX_NAME - suffix.length).replace(/_+$/, '')}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * Column names as the user wrote them (quoted in SQL), made unique case-insensitively and never empty, since
 * spreadsheets repeat and omit headers.
 */
export function uniqueColumnNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((raw, index) => {
    const clean = raw.replace(/[\u0000-\u001f]/g, ' ').trim() || `column_${index + 1}`;
    let name = clean;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${clean}_${n}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** What creating an ingested table made of it: the name and columns to register. */
export interface CreatedTable {
  sqlName: string;
  columns: { name: string; type: ColumnType }[];
  rowCount: number;
}
