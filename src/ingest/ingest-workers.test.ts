import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type ConfigInput } from '../config/index.ts';
import { createEvident } from '../evident.ts';
import { buildEml } from '../testing/mail-builder.ts';
import type { IngestProgress } from './ingest-progress.ts';

/**
 * The worker pool and batched transactions change where and when documents are processed and written, never what is
 * stored: the same files ingested on one thread with a transaction per document, and on two workers with batches,
 * give the same rows (chunks, keyword text, vectors, chapters, extras, tables, ACLs), outcomes in the same order,
 * and a bad file that fails alone.
 */
let root: string;
let docs: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'evident-workers-'));
  docs = join(root, 'docs');
  await mkdir(join(docs, 'notes'), { recursive: true });
  for (let i = 0; i < 9; i++) {
    const body = Array.from({ length: 4 + i }, (_, p) =>
      `Paragraph ${p} of note ${i} covers harbour gate ${p % 5}, order CT-2024-0${100 + i} and crane ${p}. `.repeat(5),
    ).join('\n\n');
    await writeFile(
      join(docs, 'notes', `note-${i}.md`),
      `---\ntitle: Note ${i}\n${i % 3 === 1 ? 'acl: [group:legal]\n' : ''}---\n# Note ${i}\n\n## Part A\n\n${body}\n\n## Part B\n\n${body.slice(0, 900)}\n`,
    );
  }
  await writeFile(
    join(docs, 'gates.html'),
    `<html><head><title>Gates</title></head><body>${'<h2>Gate</h2><p>Tugs wait at the quay. 合同条款甲乙方违约责任。</p>'.repeat(30)}</body></html>`,
  );
  await writeFile(
    join(docs, 'berths.csv'),
    ['berth,ship,tons', ...Array.from({ length: 30 }, (_, r) => `b${r % 4},ship-${r},${r * 2.5}`)].join('\n'),
  );
  await writeFile(join(docs, 'manifest.txt'), 'Containers are sealed at the quay. '.repeat(200));
  await writeFile(join(docs, 'manifest.txt.acl.json'), JSON.stringify({ acl: ['group:finance'] }));
  await writeFile(join(docs, 'empty.md'), '   \n');
  await writeFile(join(docs, 'bad.xlsx'), 'not a zip file');
  // A message whose attachments are documents of their own, made on the worker and written with the message.
  await writeFile(
    join(docs, 'berth-mail.eml'),
    buildEml({
      from: 'harbour@example.org',
      subject: 'Berth plan',
      messageId: '<berth@example.org>',
      text: 'The berth plan is attached.',
      attachments: [
        {
          name: 'plan.txt',
          contentType: 'text/plain',
          bytes: Buffer.from('Berth 4 takes the tanker at dawn. '.repeat(40)),
        },
        { name: 'tide.csv', contentType: 'text/csv', bytes: Buffer.from('hour,metres\n6,2.1\n12,0.4\n') },
      ],
    }),
  );
  await writeFile(join(docs, 'berth-mail.eml.acl.json'), JSON.stringify({ acl: ['group:harbour'] }));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Every stored row a reader could see, keyed by content rather than by row ids. */
function dump(path: string): unknown {
  const db = new Database(path, { readonly: true });
  sqliteVec.load(db);
  try {
    const all = (sql: string) => db.prepare(sql).all();
    return {
      documents:
        all(`SELECT doc_id, source, title, type, content_hash, bytes, tags, page_count, chunk_count, metadata, parent_doc_id,
        (SELECT json_group_array(entry) FROM (SELECT entry FROM document_acl WHERE doc_pk = d.pk ORDER BY position)) AS acl
        FROM documents d ORDER BY doc_id`),
      chunks:
        all(`SELECT c.id, c.ordinal, c.text, c.heading_path, c.page, c.start_offset, c.end_offset, f.keyword_text, hex(c.analysed) AS analysed,
        hex(v.embedding) AS vector
        FROM chunks c JOIN chunk_fts f ON f.rowid = c.pk JOIN chunk_vectors v ON v.rowid = c.pk ORDER BY c.id`),
      chapters: all(
        'SELECT d.doc_id, ch.ordinal, ch.title, ch.heading_path, ch.start_offset, ch.end_offset FROM chapters ch JOIN documents d ON d.pk = ch.doc_pk ORDER BY d.doc_id, ch.ordinal',
      ),
      summaries: all(
        'SELECT d.doc_id, s.* FROM chapter_summaries s JOIN documents d ON d.pk = s.doc_pk ORDER BY d.doc_id, s.chapter_ordinal',
      ).map(withoutIds),
      quotes: all(
        'SELECT d.doc_id, q.* FROM quotes q JOIN documents d ON d.pk = q.doc_pk ORDER BY d.doc_id, q.chunk_id, q.text',
      ).map(withoutIds),
      tables: all(
        'SELECT d.doc_id, t.ordinal, t.title, t.columns, t.row_count FROM doc_tables t JOIN documents d ON d.pk = t.doc_pk ORDER BY d.doc_id',
      ),
    };
  } finally {
    db.close();
  }
}

const withoutIds = (row: unknown) =>
  Object.fromEntries(
    Object.entries(row as Record<string, unknown>).filter(([key]) => !/^(pk|doc_pk|summary_pk|quote_pk)$/.test(key)),
  );

async function ingestWith(name: string, ingest: ConfigInput['ingest']) {
  const db = join(root, `${name}.db`);
  const logs: string[] = [];
  const logger = {
    debug: (message: string) => void logs.push(message),
    info() {},
    warn: (message: string) => void logs.push(message),
    error: (message: string) => void logs.push(message),
  };
  const evident = await createEvident(loadConfig({ env: {}, cwd: root, flags: { db, ingest } }), { logger });
  try {
    const progress: IngestProgress[] = [];
    const first = await evident.ingestor.ingest([docs], { onProgress: (p) => progress.push(p) });
    const records = Array.from({ length: 12 }, (_, i) => ({
      docId: `records/r${i}`,
      title: `Record ${i}`,
      text: `Record ${i} lists berth b${i % 4}. `.repeat(20 + i * 9),
    }));
    const fromRecords = await evident.ingestor.ingestRecords([...records, records[2] as (typeof records)[number]]);
    const again = await evident.ingestor.ingest([docs]);
    await evident.ingestor.close();
    return { first, fromRecords, again, progress, logs, rows: dump(db) };
  } finally {
    await evident.close();
  }
}

describe('ingestion on worker threads with batched writes', () => {
  it('stores exactly what the single-threaded path stores, reporting the same outcomes in the same order', async () => {
    const serial = await ingestWith('serial', { workers: 0, batchDocuments: 1 });
    const pooled = await ingestWith('pooled', { workers: 2, workerMinDocuments: 1, batchDocuments: 4 });

    expect(pooled.logs).toContain('ingest: documents are processed on worker threads');
    expect(serial.logs).not.toContain('ingest: documents are processed on worker threads');
    const summary = ({ outcomes }: { outcomes: unknown[] }) => outcomes;
    expect(summary(pooled.first)).toEqual(summary(serial.first));
    expect(summary(pooled.fromRecords)).toEqual(summary(serial.fromRecords));
    expect(summary(pooled.again)).toEqual(summary(serial.again));
    expect(pooled.rows).toEqual(serial.rows);

    // Sanity of what was compared: a failure alone, the rest stored, unchanged files are no-ops, a repeated record updates.
    const byDoc = Object.fromEntries(pooled.first.outcomes.map((o) => [o.docId, o]));
    expect(byDoc['bad.xlsx']?.status).toBe('failed');
    expect(byDoc['empty.md']?.error?.code).toBe('file_empty');
    expect(pooled.first.added).toBe(pooled.first.outcomes.length - 2);
    expect(pooled.again.unchanged).toBe(pooled.again.outcomes.length - 2);
    expect(pooled.fromRecords.outcomes.at(-1)).toMatchObject({ docId: 'records/r2', status: 'unchanged' });
    expect(pooled.progress.map((p) => p.filesDone)).toEqual(pooled.first.outcomes.map((_, i) => i + 1));
    expect((pooled.rows as { chunks: unknown[] }).chunks.length).toBeGreaterThan(40);
    expect(byDoc['berth-mail.eml']?.attachments).toEqual(['berth-mail.eml/plan.txt', 'berth-mail.eml/tide.csv']);
    const documents = (pooled.rows as { documents: { doc_id: string; parent_doc_id: string | null; acl: string }[] })
      .documents;
    expect(
      documents.filter((doc) => doc.parent_doc_id === 'berth-mail.eml').map((doc) => [doc.doc_id, doc.acl]),
    ).toEqual([
      ['berth-mail.eml/plan.txt', '["group:harbour"]'],
      ['berth-mail.eml/tide.csv', '["group:harbour"]'],
    ]);
  }, 120_000);
});
