import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import { chunkPostingMismatches } from '../store/postgres/keyword-block-check.ts';

/**
 * What a store must look like after any crash, read straight from its tables (not through the store code under
 * test): the engine's own integrity check, then Evident's invariants — every document whole (its chunk count matches
 * its chunks, each chunk with its keyword row and its vector), no orphan rows, every registered ingested table there.
 */
export interface IntegrityReport {
  /** Empty when the store is sound; otherwise one line per broken invariant. */
  problems: string[];
}

/** One document as an uninterrupted ingest leaves it: compared across stores to prove a re-run converges. */
export interface DocumentSnapshot {
  doc_id: string;
  content_hash: string;
  chunk_count: number;
  title: string;
  acl: string[];
  /** sha256 of the chunks' texts in order, so two stores agree on content, not only on counts. */
  chunks_digest: string;
  tables: number;
}

const digest = (texts: readonly string[]) =>
  createHash('sha256').update(texts.join('\u0000')).digest('hex').slice(0, 16);

const nonEmpty = (label: string, rows: unknown[]): string[] =>
  rows.length ? [`${label}: ${JSON.stringify(rows.slice(0, 5))}`] : [];

/** Opens the file as the next process would (replaying the WAL), with sqlite-vec for the vector table. */
function openSqlite(path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true });
  sqliteVec.load(db);
  return db;
}

const hasTable = (db: Database.Database, name: string) =>
  db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;

export function sqliteIntegrity(path: string): IntegrityReport {
  // Killed before it created the file: nothing was written, nothing can be broken.
  if (!existsSync(path)) return { problems: [] };
  const db = openSqlite(path);
  try {
    const problems: string[] = [];
    const check = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
    if (check.join() !== 'ok') problems.push(`integrity_check: ${check.slice(0, 5).join('; ')}`);
    problems.push(...nonEmpty('foreign_key_check', db.pragma('foreign_key_check') as unknown[]));
    // A store killed before its first migration committed has no documents table yet: that is an empty store.
    if (!hasTable(db, 'documents')) return { problems };
    const all = (sql: string) => db.prepare(sql).all();
    try {
      db.exec("INSERT INTO chunk_fts(chunk_fts) VALUES ('integrity-check')");
    } catch (error) {
      problems.push(`fts integrity-check: ${(error as Error).message}`);
    }
    problems.push(
      ...nonEmpty(
        'documents whose chunk_count is not their chunks',
        all(
          'SELECT d.doc_id, d.chunk_count, (SELECT count(*) FROM chunks c WHERE c.doc_pk = d.pk) AS actual FROM documents d WHERE d.chunk_count <> (SELECT count(*) FROM chunks c WHERE c.doc_pk = d.pk)',
        ),
      ),
      ...nonEmpty(
        'chunks without a keyword row',
        all('SELECT c.id FROM chunks c WHERE c.pk NOT IN (SELECT rowid FROM chunk_fts)'),
      ),
      ...nonEmpty(
        'keyword rows without a chunk',
        all('SELECT rowid FROM chunk_fts WHERE rowid NOT IN (SELECT pk FROM chunks)'),
      ),
      ...nonEmpty('documents without chunks', all('SELECT doc_id FROM documents WHERE chunk_count = 0')),
    );
    if (hasTable(db, 'chunk_vectors')) {
      problems.push(
        ...nonEmpty(
          'chunks without a vector',
          all('SELECT c.id FROM chunks c WHERE c.pk NOT IN (SELECT rowid FROM chunk_vectors)'),
        ),
        ...nonEmpty(
          'vectors without a chunk',
          all('SELECT rowid FROM chunk_vectors WHERE rowid NOT IN (SELECT pk FROM chunks)'),
        ),
      );
    } else {
      problems.push(...nonEmpty('chunks but no vector table', all('SELECT id FROM chunks LIMIT 1')));
    }
    const tables = new Set(
      (
        all("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'tbl\\_%' ESCAPE '\\'") as {
          name: string;
        }[]
      ).map((row) => row.name),
    );
    const registered = (all('SELECT sql_name FROM doc_tables') as { sql_name: string }[]).map((row) => row.sql_name);
    problems.push(
      ...nonEmpty(
        'registered tables missing',
        registered.filter((name) => !tables.has(name)),
      ),
    );
    problems.push(
      ...nonEmpty(
        'ingested tables not registered',
        [...tables].filter((name) => !registered.includes(name)),
      ),
    );
    return { problems };
  } finally {
    db.close();
  }
}

export function sqliteSnapshot(path: string): DocumentSnapshot[] {
  if (!existsSync(path)) return [];
  const db = openSqlite(path);
  try {
    if (!hasTable(db, 'documents')) return [];
    const docs = db
      .prepare('SELECT pk, doc_id, content_hash, chunk_count, title FROM documents ORDER BY doc_id')
      .all() as { pk: number; doc_id: string; content_hash: string; chunk_count: number; title: string }[];
    const acl = db.prepare('SELECT entry FROM document_acl WHERE doc_pk = ? ORDER BY position');
    const texts = db.prepare('SELECT text FROM chunks WHERE doc_pk = ? ORDER BY ordinal');
    const tables = db.prepare('SELECT count(*) AS n FROM doc_tables WHERE doc_pk = ?');
    return docs.map((doc) => ({
      doc_id: doc.doc_id,
      content_hash: doc.content_hash,
      chunk_count: doc.chunk_count,
      title: doc.title,
      acl: (acl.all(doc.pk) as { entry: string }[]).map((row) => row.entry),
      chunks_digest: digest((texts.all(doc.pk) as { text: string }[]).map((row) => row.text)),
      tables: (tables.get(doc.pk) as { n: number }).n,
    }));
  } finally {
    db.close();
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const schemaExists = async (client: pg.Client, schema: string, table: string) =>
  (
    await client.query('SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [
      schema,
      table,
    ])
  ).rowCount === 1;

/** The consistency query of a Postgres store (`schema`): documents whole, keyword postings and statistics and vectors matching chunks. */
export function postgresIntegrity(url: string, schema: string): Promise<IntegrityReport> {
  return withClient(url, async (client) => {
    if (!(await schemaExists(client, schema, 'documents'))) return { problems: [] };
    const s = `"${schema}"`;
    const q = async (sql: string) => (await client.query(sql)).rows as unknown[];
    // A store killed between two migrations lacks the later tables until the next open completes them: check what is there.
    const has = (table: string) => schemaExists(client, schema, table);
    const problems = [
      ...nonEmpty(
        'chunks whose document is gone',
        await q(`SELECT c.id FROM ${s}.chunks c LEFT JOIN ${s}.documents d ON d.pk = c.doc_pk WHERE d.pk IS NULL`),
      ),
      ...nonEmpty(
        'documents whose chunk_count is not their chunks',
        await q(
          `SELECT d.doc_id FROM ${s}.documents d WHERE d.chunk_count <> (SELECT count(*) FROM ${s}.chunks c WHERE c.doc_pk = d.pk) OR d.chunk_count = 0`,
        ),
      ),
      ...nonEmpty(
        'keyword statistics that differ from the chunks',
        await q(`SELECT t.rows, t.tokens FROM ${s}.keyword_totals t WHERE t.corpus = 1
                 AND (t.rows, t.tokens) <> (SELECT count(*), coalesce(sum(keyword_length), 0) FROM ${s}.chunks)`),
      ),
      ...nonEmpty(
        'term document frequencies that differ from the chunks',
        await q(`WITH actual AS (SELECT l AS term, count(*) AS df FROM ${s}.chunks, unnest(tsvector_to_array(keyword)) l GROUP BY l),
                     kept AS (SELECT term, df FROM ${s}.keyword_terms WHERE corpus = 1 AND df <> 0)
                SELECT coalesce(a.term, k.term) AS term FROM actual a FULL JOIN kept k ON k.term = a.term WHERE a.df IS DISTINCT FROM k.df LIMIT 5`),
      ),
    ];
    if (await has('keyword_blocks')) {
      problems.push(
        ...nonEmpty('keyword postings that differ from the chunks', await chunkPostingMismatches(client, s)),
      );
    }
    if (await has('chunk_vectors')) {
      problems.push(
        ...nonEmpty(
          'chunks without a vector',
          await q(
            `SELECT c.id FROM ${s}.chunks c LEFT JOIN ${s}.chunk_vectors v ON v.chunk_pk = c.pk WHERE v.chunk_pk IS NULL`,
          ),
        ),
      );
    } else {
      problems.push(...nonEmpty('chunks but no vector table', await q(`SELECT id FROM ${s}.chunks LIMIT 1`)));
    }
    const tables = (await q(`SELECT tablename FROM pg_tables WHERE schemaname = '${schema}_tables'`)) as {
      tablename: string;
    }[];
    const registered = ((await q(`SELECT sql_name FROM ${s}.doc_tables`)) as { sql_name: string }[]).map(
      (row) => row.sql_name,
    );
    problems.push(
      ...nonEmpty(
        'registered tables missing',
        registered.filter((name) => !tables.some((table) => table.tablename === name)),
      ),
    );
    problems.push(
      ...nonEmpty(
        'ingested tables not registered',
        tables.filter((table) => !registered.includes(table.tablename)),
      ),
    );
    return { problems };
  });
}

export function postgresSnapshot(url: string, schema: string): Promise<DocumentSnapshot[]> {
  return withClient(url, async (client) => {
    if (!(await schemaExists(client, schema, 'documents'))) return [];
    const s = `"${schema}"`;
    const { rows } = await client.query<{
      doc_id: string;
      content_hash: string;
      chunk_count: number;
      title: string;
      acl: string[];
      texts: string[] | null;
      tables: string;
    }>(
      `SELECT d.doc_id, d.content_hash, d.chunk_count, d.title, d.acl,
              (SELECT array_agg(c.text ORDER BY c.ordinal) FROM ${s}.chunks c WHERE c.doc_pk = d.pk) AS texts,
              (SELECT count(*) FROM ${s}.doc_tables t WHERE t.doc_pk = d.pk) AS tables
       FROM ${s}.documents d ORDER BY d.doc_id COLLATE "C"`,
    );
    return rows.map((row) => ({
      doc_id: row.doc_id,
      content_hash: row.content_hash,
      chunk_count: row.chunk_count,
      title: row.title,
      acl: row.acl,
      chunks_digest: digest(row.texts ?? []),
      tables: Number(row.tables),
    }));
  });
}
