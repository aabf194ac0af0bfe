import type { Database } from 'better-sqlite3';
import { analyzeForIndex } from '../../text/analyzer.ts';
import { encodeAnalysedForm } from '../../text/analysed-form.ts';
import { chunkSearchText } from '../../text/chunk-search-text.ts';

/**
 * A chunk's stored analysed form (`chunks.analysed`, text/analysed-form.ts) as the blob the writer binds: from the
 * chunk's text and the index terms ingestion computed for it (`analyzeForIndex(chunkSearchText(chunk))`).
 */
export function analysedFormBlob(text: string, keywordText: string): Buffer {
  const form = encodeAnalysedForm(text, keywordText);
  return Buffer.from(form.buffer, form.byteOffset, form.byteLength);
}

/**
 * Fills `chunks.analysed` for every chunk that has none (a store written before the column existed), reading each
 * chunk's text, heading path and document title as ingestion did, in batches of `batch` chunks by pk. Returns how
 * many chunks it filled. Runs in the caller's transaction (the migration's).
 */
export function backfillAnalysedForms(db: Database, batch = 2000): number {
  const select = db.prepare(
    `SELECT c.pk, c.text, c.heading_path, d.title FROM chunks c JOIN documents d ON d.pk = c.doc_pk
     WHERE c.pk > ? AND c.analysed IS NULL ORDER BY c.pk LIMIT ?`,
  );
  const update = db.prepare('UPDATE chunks SET analysed = ? WHERE pk = ?');
  let filled = 0;
  let after = 0;
  for (;;) {
    const rows = select.all(after, batch) as { pk: number; text: string; heading_path: string; title: string }[];
    if (rows.length === 0) return filled;
    for (const row of rows) {
      const headingPath = JSON.parse(row.heading_path) as string[];
      const keywordText = analyzeForIndex(chunkSearchText({ title: row.title, headingPath, text: row.text }));
      update.run(analysedFormBlob(row.text, keywordText), row.pk);
      after = row.pk;
    }
    filled += rows.length;
  }
}
