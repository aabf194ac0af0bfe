import type Database from 'better-sqlite3';
import type { DocumentExtras, QuoteHit, SummaryHit, SummaryMethod } from '../document-extras.ts';
import type { DocumentExtrasInfo } from '../store.ts';
import { aclCondition, aclParams } from './acl-sql.ts';
import { ftsMatchExpression } from './keyword-query.ts';

type Stmt = (sql: string) => Database.Statement;

/** Deletes a version's extras and their FTS rows (contentless FTS tables have no cascade). */
export function removeExtras(stmt: Stmt, docPk: number): void {
  const deleteSummaryFts = stmt('DELETE FROM summary_fts WHERE rowid = ?');
  for (const { pk } of stmt('SELECT pk FROM chapter_summaries WHERE doc_pk = ?').all(docPk) as { pk: number }[])
    deleteSummaryFts.run(pk);
  const deleteQuoteFts = stmt('DELETE FROM quote_fts WHERE rowid = ?');
  for (const { pk } of stmt('SELECT pk FROM quotes WHERE doc_pk = ?').all(docPk) as { pk: number }[])
    deleteQuoteFts.run(pk);
  stmt('DELETE FROM chapter_summaries WHERE doc_pk = ?').run(docPk);
  stmt('DELETE FROM quotes WHERE doc_pk = ?').run(docPk);
  stmt('DELETE FROM document_extras WHERE doc_pk = ?').run(docPk);
}

/** Writes a version's extras inside the caller's transaction (after `removeExtras` when replacing). */
export function insertExtras(stmt: Stmt, docPk: number, extras: DocumentExtras): void {
  const method: SummaryMethod = extras.summaries[0]?.method ?? 'extractive';
  stmt('INSERT INTO document_extras (doc_pk, summary_method, computed_at) VALUES (?, ?, ?)').run(
    docPk,
    method,
    new Date().toISOString(),
  );
  const insertSummary = stmt(
    `INSERT INTO chapter_summaries (doc_pk, chapter_ordinal, title, text, method, chunk_ids)
     VALUES (@docPk, @chapterOrdinal, @title, @text, @method, @chunkIds)`,
  );
  const insertSummaryFts = stmt('INSERT INTO summary_fts (rowid, keyword_text) VALUES (?, ?)');
  for (const summary of extras.summaries) {
    const pk = insertSummary.run({
      docPk,
      chapterOrdinal: summary.chapterOrdinal,
      title: summary.title,
      text: summary.text,
      method: summary.method,
      chunkIds: JSON.stringify(summary.chunkIds),
    }).lastInsertRowid;
    insertSummaryFts.run(pk, summary.keywordText);
  }
  const insertQuote = stmt('INSERT INTO quotes (doc_pk, ordinal, chunk_id, text) VALUES (?, ?, ?, ?)');
  const insertQuoteFts = stmt('INSERT INTO quote_fts (rowid, keyword_text) VALUES (?, ?)');
  extras.quotes.forEach((quote, ordinal) => {
    const pk = insertQuote.run(docPk, ordinal, quote.chunkId, quote.text).lastInsertRowid;
    insertQuoteFts.run(pk, quote.keywordText);
  });
}

export function extrasInfo(stmt: Stmt, docId: string): DocumentExtrasInfo | undefined {
  const row = stmt(
    `SELECT e.summary_method,
            (SELECT count(*) FROM chapter_summaries s WHERE s.doc_pk = e.doc_pk) AS summaries,
            (SELECT count(*) FROM quotes q WHERE q.doc_pk = e.doc_pk) AS quotes
     FROM document_extras e JOIN documents d ON d.pk = e.doc_pk WHERE d.doc_id = ?`,
  ).get(docId) as { summary_method: string; summaries: number; quotes: number } | undefined;
  return row
    ? { summaryMethod: row.summary_method as SummaryMethod, summaries: row.summaries, quotes: row.quotes }
    : undefined;
}

interface SummaryRow {
  doc_id: string;
  source: string;
  doc_title: string;
  chapter_ordinal: number;
  title: string;
  text: string;
  method: string;
  chunk_ids: string;
  score: number;
}

/** BM25 over the summaries; the principal filter is in the WHERE, before ranking and the limit. */
export function searchSummaries(
  stmt: Stmt,
  terms: readonly string[],
  keys: readonly string[] | undefined,
  limit: number,
): SummaryHit[] {
  const match = ftsMatchExpression(terms);
  if (match === undefined || limit <= 0) return [];
  const rows = stmt(
    `SELECT d.doc_id, d.source, d.title AS doc_title, s.chapter_ordinal, s.title, s.text, s.method, s.chunk_ids,
            -bm25(summary_fts) AS score
     FROM summary_fts JOIN chapter_summaries s ON s.pk = summary_fts.rowid JOIN documents d ON d.pk = s.doc_pk
     WHERE summary_fts MATCH @match${aclCondition('s.doc_pk', keys)}
     ORDER BY bm25(summary_fts), s.pk LIMIT @limit`,
  ).all({ match, limit: Math.floor(limit), ...aclParams(keys) }) as SummaryRow[];
  return rows.map((row, i) => ({
    id: `${row.doc_id}#summary-${row.chapter_ordinal}`,
    docId: row.doc_id,
    source: row.source,
    docTitle: row.doc_title,
    chapterOrdinal: row.chapter_ordinal,
    title: row.title,
    text: row.text,
    method: row.method as SummaryMethod,
    chunkIds: JSON.parse(row.chunk_ids) as string[],
    rank: i + 1,
    score: row.score,
  }));
}

interface QuoteRow {
  doc_id: string;
  source: string;
  doc_title: string;
  ordinal: number;
  chunk_id: string;
  text: string;
  score: number;
}

export function searchQuotes(
  stmt: Stmt,
  terms: readonly string[],
  keys: readonly string[] | undefined,
  limit: number,
): QuoteHit[] {
  const match = ftsMatchExpression(terms);
  if (match === undefined || limit <= 0) return [];
  const rows = stmt(
    `SELECT d.doc_id, d.source, d.title AS doc_title, q.ordinal, q.chunk_id, q.text, -bm25(quote_fts) AS score
     FROM quote_fts JOIN quotes q ON q.pk = quote_fts.rowid JOIN documents d ON d.pk = q.doc_pk
     WHERE quote_fts MATCH @match${aclCondition('q.doc_pk', keys)}
     ORDER BY bm25(quote_fts), q.pk LIMIT @limit`,
  ).all({ match, limit: Math.floor(limit), ...aclParams(keys) }) as QuoteRow[];
  return rows.map((row, i) => ({
    id: `${row.doc_id}#quote-${row.ordinal}`,
    docId: row.doc_id,
    source: row.source,
    docTitle: row.doc_title,
    chunkId: row.chunk_id,
    text: row.text,
    rank: i + 1,
    score: row.score,
  }));
}
