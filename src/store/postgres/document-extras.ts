import type { PoolClient } from 'pg';
import type { DocumentExtras, QuoteHit, SummaryHit, SummaryMethod } from '../document-extras.ts';
import type { DocumentExtrasInfo } from '../store.ts';
import { aclFilter } from './acl-sql.ts';
import { CORPUS, keywordDocument, type KeywordTable } from './keyword-index.ts';
import { rankByBm25 } from './keyword-ranking.ts';
import type { KeywordStatsDelta } from './term-stats.ts';

export const SUMMARIES: KeywordTable = { corpus: CORPUS.summaries, table: 'chapter_summaries' };
export const QUOTES: KeywordTable = { corpus: CORPUS.quotes, table: 'quotes' };

/** Deletes a version's extras, taking their terms out of the keyword statistics. */
export async function removeExtras(client: PoolClient, docPk: number, stats: KeywordStatsDelta): Promise<void> {
  await stats.subtractStored(client, SUMMARIES, 'doc_pk = $1', [docPk]);
  await stats.subtractStored(client, QUOTES, 'doc_pk = $1', [docPk]);
  await client.query('DELETE FROM chapter_summaries WHERE doc_pk = $1', [docPk]);
  await client.query('DELETE FROM quotes WHERE doc_pk = $1', [docPk]);
  await client.query('DELETE FROM document_extras WHERE doc_pk = $1', [docPk]);
}

/** Writes a version's extras inside the caller's transaction (after `removeExtras` when replacing). */
export async function insertExtras(
  client: PoolClient,
  docPk: number,
  extras: DocumentExtras,
  stats: KeywordStatsDelta,
): Promise<void> {
  const method: SummaryMethod = extras.summaries[0]?.method ?? 'extractive';
  await client.query('INSERT INTO document_extras (doc_pk, summary_method, computed_at) VALUES ($1, $2, $3)', [
    docPk,
    method,
    new Date(),
  ]);
  const summaryKeywords = extras.summaries.map((summary) => keywordDocument(summary.keywordText));
  summaryKeywords.forEach((doc) => stats.add(CORPUS.summaries, doc));
  if (extras.summaries.length > 0) {
    const inserted = await client.query<{ pk: number; chapter_ordinal: number }>(
      `INSERT INTO chapter_summaries (doc_pk, chapter_ordinal, title, text, method, chunk_ids, keyword, keyword_length)
       SELECT $1, o, t, x, m, array(SELECT json_array_elements_text(c)), k::tsvector, l
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::json[], $7::text[], $8::int[]) AS s(o, t, x, m, c, k, l)
       RETURNING pk, chapter_ordinal`,
      [
        docPk,
        extras.summaries.map((s) => s.chapterOrdinal),
        extras.summaries.map((s) => s.title),
        extras.summaries.map((s) => s.text),
        extras.summaries.map((s) => s.method),
        extras.summaries.map((s) => JSON.stringify(s.chunkIds)),
        summaryKeywords.map((k) => k.tsvector),
        summaryKeywords.map((k) => k.length),
      ],
    );
    const pkOf = new Map(inserted.rows.map((row) => [row.chapter_ordinal, Number(row.pk)]));
    stats.addPostings(
      CORPUS.summaries,
      extras.summaries.map((summary) => pkOf.get(summary.chapterOrdinal) as number),
      summaryKeywords,
    );
  }
  const quoteKeywords = extras.quotes.map((quote) => keywordDocument(quote.keywordText));
  quoteKeywords.forEach((doc) => stats.add(CORPUS.quotes, doc));
  if (extras.quotes.length > 0) {
    const inserted = await client.query<{ pk: number; ordinal: number }>(
      `INSERT INTO quotes (doc_pk, ordinal, chunk_id, text, keyword, keyword_length)
       SELECT $1, o - 1, c, x, k::tsvector, l FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) WITH ORDINALITY AS q(c, x, k, l, o)
       RETURNING pk, ordinal`,
      [
        docPk,
        extras.quotes.map((q) => q.chunkId),
        extras.quotes.map((q) => q.text),
        quoteKeywords.map((k) => k.tsvector),
        quoteKeywords.map((k) => k.length),
      ],
    );
    const pkOf = new Map(inserted.rows.map((row) => [row.ordinal, Number(row.pk)]));
    stats.addPostings(
      CORPUS.quotes,
      extras.quotes.map((_, ordinal) => pkOf.get(ordinal) as number),
      quoteKeywords,
    );
  }
}

export async function extrasInfo(client: PoolClient, docId: string): Promise<DocumentExtrasInfo | undefined> {
  const row = (
    await client.query<{ summary_method: string; summaries: number; quotes: number }>(
      `SELECT e.summary_method,
              (SELECT count(*) FROM chapter_summaries s WHERE s.doc_pk = e.doc_pk) AS summaries,
              (SELECT count(*) FROM quotes q WHERE q.doc_pk = e.doc_pk) AS quotes
       FROM document_extras e JOIN documents d ON d.pk = e.doc_pk WHERE d.doc_id = $1`,
      [docId],
    )
  ).rows[0];
  return row
    ? {
        summaryMethod: row.summary_method as SummaryMethod,
        summaries: Number(row.summaries),
        quotes: Number(row.quotes),
      }
    : undefined;
}

/** Rows of `pks` in the order given, with their scores. */
const inRankOrder = <T extends { pk: number }>(rows: T[], ranked: { pk: number; score: number }[]) => {
  const byPk = new Map(rows.map((row) => [Number(row.pk), row]));
  return ranked.flatMap(({ pk, score }) => {
    const row = byPk.get(pk);
    return row ? [{ row, score }] : [];
  });
};

export async function searchSummaries(
  client: PoolClient,
  terms: readonly string[],
  keys: readonly string[] | undefined,
  limit: number,
): Promise<SummaryHit[]> {
  const ranked = await rankByBm25(client, SUMMARIES, terms, aclFilter('d', keys, 1), limit);
  if (ranked.length === 0) return [];
  const rows = await client.query<{
    pk: number;
    doc_id: string;
    source: string;
    doc_title: string;
    chapter_ordinal: number;
    title: string;
    text: string;
    method: string;
    chunk_ids: string[];
  }>(
    `SELECT s.pk, d.doc_id, d.source, d.title AS doc_title, s.chapter_ordinal, s.title, s.text, s.method, s.chunk_ids
     FROM chapter_summaries s JOIN documents d ON d.pk = s.doc_pk WHERE s.pk = ANY($1::bigint[])`,
    [ranked.map((r) => r.pk)],
  );
  return inRankOrder(rows.rows, ranked).map(({ row, score }, i) => ({
    id: `${row.doc_id}#summary-${row.chapter_ordinal}`,
    docId: row.doc_id,
    source: row.source,
    docTitle: row.doc_title,
    chapterOrdinal: row.chapter_ordinal,
    title: row.title,
    text: row.text,
    method: row.method as SummaryMethod,
    chunkIds: row.chunk_ids,
    rank: i + 1,
    score,
  }));
}

export async function searchQuotes(
  client: PoolClient,
  terms: readonly string[],
  keys: readonly string[] | undefined,
  limit: number,
): Promise<QuoteHit[]> {
  const ranked = await rankByBm25(client, QUOTES, terms, aclFilter('d', keys, 1), limit);
  if (ranked.length === 0) return [];
  const rows = await client.query<{
    pk: number;
    doc_id: string;
    source: string;
    doc_title: string;
    ordinal: number;
    chunk_id: string;
    text: string;
  }>(
    `SELECT q.pk, d.doc_id, d.source, d.title AS doc_title, q.ordinal, q.chunk_id, q.text
     FROM quotes q JOIN documents d ON d.pk = q.doc_pk WHERE q.pk = ANY($1::bigint[])`,
    [ranked.map((r) => r.pk)],
  );
  return inRankOrder(rows.rows, ranked).map(({ row, score }, i) => ({
    id: `${row.doc_id}#quote-${row.ordinal}`,
    docId: row.doc_id,
    source: row.source,
    docTitle: row.doc_title,
    chunkId: row.chunk_id,
    text: row.text,
    rank: i + 1,
    score,
  }));
}
