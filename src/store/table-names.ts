import { createHash } from 'node:crypto';
import type { ColumnType } from '../domain/index.ts';

/** The names an ingested table gets, the same on every backend, so the table tools write the same SQL on both. */

const MAX_NAME = 60;
const MAX_TITLE_PART = 24;

/** `Finance/Q1 Report.xlsx` → `finance_q1_report_xlsx`: lowercase ASCII letters, digits and single underscores. */
export function sqlSlug(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A title's parts after the file stem: `page 6` / `Table 1` of a PDF become `p6` / `t1`. */
function titleParts(title: string, docSlug: string): string[] {
  const parts = title.split(' / ').map((part) => part.trim());
  // Workbook sheets and PDF tables are titled `<file stem> / …`; the stem is already in the doc slug.
  const first = sqlSlug(parts[0] ?? '');
  if (parts.length > 1 && first !== '' && `_${docSlug}_`.includes(`_${first}_`)) parts.shift();
  return parts.map((part, index) => {
    const page = /^page (\d+)$/i.exec(part);
    if (page) return `p${page[1]}`;
    const table = /^table (\w+)$/i.exec(part);
    return table && /^page \d+$/i.test(parts[index - 1] ?? '') ? `t${sqlSlug(table[1]!)}` : sqlSlug(part);
  });
}

/** `base` within `max` characters, cut at a word (`_`) and told apart by a hash of the whole, never mid-word. */
function shortened(base: string, max: number): string {
  if (base.length <= max) return base;
  const hash = createHash('sha256').update(base).digest('hex').slice(0, 8);
  const room = max - hash.length - 1;
  const cut = base.lastIndexOf('_', room);
  return `${base.slice(0, cut > 3 ? cut : room)}_${hash}`;
}

/**
 * A table name that is a plain identifier (no quoting needed by whoever writes SQL against it): `tbl_`, the
 * document, then what the title adds (`tbl_bert_pdf_p6_t1` for Table 1 on page 6 of bert.pdf); within `MAX_NAME`
 * characters, shortened at a word with a hash suffix, and not taken (`taken` compares case-insensitively, as SQLite
 * does). The same document and title give the same name.
 */
export function tableSqlName(docId: string, title: string, taken: (name: string) => boolean): string {
  const docSlug = sqlSlug(docId);
  const titleSlug = titleParts(title, docSlug).filter(Boolean).join('_');
  // A CSV titled by its stem adds nothing the doc slug does not say.
  const own = titleSlug && !docSlug.includes(titleSlug) ? titleSlug : '';
  // A short title part (`p6_t1`) is kept whole; the document's part is the one shortened.
  const base =
    own && own.length <= MAX_TITLE_PART
      ? `${shortened(`tbl_${docSlug}`, MAX_NAME - own.length - 1)}_${own}`
      : shortened(`tbl_${[docSlug, own].filter(Boolean).join('_') || 'table'}`, MAX_NAME);
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${shortened(base, MAX_NAME - suffix.length)}${suffix}`;
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
