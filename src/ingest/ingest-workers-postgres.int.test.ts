import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../config/index.ts';
import { createEvident } from '../evident.ts';
import { withSchema } from '../store/postgres/drop-store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';

/**
 * On Postgres too, worker threads, batched transactions and two batches in flight store what one thread writing a
 * transaction per document stores: documents, chunks with their keyword vectors, vectors, chapters, extras and the
 * BM25 statistics, and report the same outcomes.
 */
describeWithPostgres('ingestion on worker threads with batched writes, on Postgres', (url) => {
  const schemas = [freshSchema('evident_ingest_serial'), freshSchema('evident_ingest_pooled')];
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'evident-workers-pg-'));
    for (let i = 0; i < 10; i++) {
      const body = Array.from({ length: 3 + i }, (_, p) =>
        `Paragraph ${p} of memo ${i} routes cargo through gate ${p % 4} under order CT-2025-0${200 + i}. `.repeat(6),
      ).join('\n\n');
      await writeFile(
        join(root, `memo-${i}.md`),
        `---\ntitle: Memo ${i}\n${i % 4 === 1 ? 'acl: [group:legal]\n' : ''}---\n# Memo ${i}\n\n${body}\n`,
      );
    }
    await writeFile(join(root, 'broken.docx'), 'not a zip');
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await dropSchemas(url, schemas);
  });

  async function ingestWith(schema: string, ingest: ConfigInput['ingest']) {
    const evident = await createEvident(
      loadConfig({ env: {}, cwd: root, flags: { databaseUrl: withSchema(url, schema), ingest } }),
    );
    try {
      const first = await evident.ingestor.ingest([root]);
      const again = await evident.ingestor.ingest([root]);
      await evident.ingestor.close();
      return { outcomes: [first.outcomes, again.outcomes] as const, rows: await dump(schema) };
    } finally {
      await evident.close();
    }
  }

  async function dump(schema: string): Promise<unknown> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const s = `"${schema}"`;
      const rows = async (sql: string) => (await client.query(sql)).rows;
      return {
        documents: await rows(
          `SELECT doc_id, source, title, type, content_hash, bytes, tags, page_count, chunk_count, acl FROM ${s}.documents ORDER BY doc_id`,
        ),
        chunks:
          await rows(`SELECT c.id, c.ordinal, c.text, c.heading_path, c.page, c.start_offset, c.end_offset, c.keyword::text AS keyword, c.keyword_length, v.embedding::text AS vector
          FROM ${s}.chunks c JOIN ${s}.chunk_vectors v ON v.chunk_pk = c.pk ORDER BY c.id`),
        chapters: await rows(
          `SELECT d.doc_id, ch.ordinal, ch.title, ch.start_offset, ch.end_offset FROM ${s}.chapters ch JOIN ${s}.documents d ON d.pk = ch.doc_pk ORDER BY 1, 2`,
        ),
        summaries: await rows(
          `SELECT d.doc_id, x.chapter_ordinal, x.text, x.method FROM ${s}.chapter_summaries x JOIN ${s}.documents d ON d.pk = x.doc_pk ORDER BY 1, 2`,
        ),
        quotes: await rows(
          `SELECT d.doc_id, x.chunk_id, x.text FROM ${s}.quotes x JOIN ${s}.documents d ON d.pk = x.doc_pk ORDER BY 1, 2, 3`,
        ),
        terms: await rows(
          `SELECT corpus, term, df FROM ${s}.keyword_terms WHERE df <> 0 ORDER BY corpus, term COLLATE "C"`,
        ),
        totals: await rows(`SELECT corpus, rows, tokens FROM ${s}.keyword_totals ORDER BY corpus`),
      };
    } finally {
      await client.end();
    }
  }

  it('stores and reports exactly what the single-threaded path does', async () => {
    const serial = await ingestWith(schemas[0] as string, { workers: 0, batchDocuments: 1 });
    const pooled = await ingestWith(schemas[1] as string, { workers: 2, workerMinDocuments: 1, batchDocuments: 3 });
    expect(pooled.outcomes).toEqual(serial.outcomes);
    expect(pooled.rows).toEqual(serial.rows);
    const [first, again] = pooled.outcomes;
    expect(first.filter((o) => o.status === 'added')).toHaveLength(10);
    expect(first.filter((o) => o.status === 'failed')).toHaveLength(1);
    expect(again.filter((o) => o.status === 'unchanged')).toHaveLength(10);
    expect((pooled.rows as { chunks: unknown[] }).chunks.length).toBeGreaterThan(20);
  }, 300_000);
});
