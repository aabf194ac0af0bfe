import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { withSchema } from './drop-store.ts';
import { chunkPostingMismatches } from './keyword-block-check.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, '../../../bin/evident.js');

/** Text long enough for several chunks, with words that make each file findable on its own. */
const document = (name: string, version: number): string =>
  `# ${name}\n\n` +
  Array.from({ length: 12 }, (_, i) =>
    `Paragraph ${i} of ${name} version ${version} mentions token${name.replace(/\W/g, '')} and shared vocabulary about contracts, invoices and harbours. `.repeat(
      3,
    ),
  ).join('\n\n');

const csv = (rows: number): string =>
  ['region,amount', ...Array.from({ length: rows }, (_, i) => `r${i % 3},${i * 1.5}`)].join('\n');

function writeCorpus(root: string, names: string[], version: number): void {
  mkdirSync(root, { recursive: true });
  for (const name of names) writeFileSync(join(root, `${name}.md`), document(name, version));
  writeFileSync(join(root, `${names[0]}-sales.csv`), csv(20 + version));
}

/** Every invariant a half-done or interleaved write would break, checked in SQL. */
async function inconsistencies(client: pg.Client, schema: string): Promise<Record<string, unknown[]>> {
  const q = async (sql: string) => (await client.query(sql)).rows;
  return {
    chunkCounts: await q(
      `SELECT d.doc_id FROM "${schema}".documents d WHERE d.chunk_count <> (SELECT count(*) FROM "${schema}".chunks c WHERE c.doc_pk = d.pk)`,
    ),
    missingVectors: await q(
      `SELECT c.id FROM "${schema}".chunks c LEFT JOIN "${schema}".chunk_vectors v ON v.chunk_pk = c.pk WHERE v.chunk_pk IS NULL`,
    ),
    termStatistics: await q(`
      WITH actual AS (SELECT l AS term, count(*) AS df FROM "${schema}".chunks, unnest(tsvector_to_array(keyword)) l GROUP BY l),
           kept AS (SELECT term, df FROM "${schema}".keyword_terms WHERE corpus = 1 AND df <> 0)
      SELECT coalesce(a.term, k.term) AS term, a.df AS actual, k.df AS kept FROM actual a FULL JOIN kept k ON k.term = a.term
      WHERE a.df IS DISTINCT FROM k.df`),
    postings: await chunkPostingMismatches(client, `"${schema}"`),
    totals: await q(`SELECT t.rows, t.tokens FROM "${schema}".keyword_totals t
      WHERE t.corpus = 1 AND (t.rows, t.tokens) <> (SELECT count(*), coalesce(sum(keyword_length), 0) FROM "${schema}".chunks)`),
    orphanTables: await q(`SELECT tablename FROM pg_tables WHERE schemaname = '${schema}_tables'
      AND tablename NOT IN (SELECT sql_name FROM "${schema}".doc_tables)`),
    missingTables: await q(
      `SELECT sql_name FROM "${schema}".doc_tables WHERE sql_name NOT IN (SELECT tablename FROM pg_tables WHERE schemaname = '${schema}_tables')`,
    ),
  };
}

const noInconsistencies = {
  chunkCounts: [],
  missingVectors: [],
  termStatistics: [],
  postings: [],
  totals: [],
  orphanTables: [],
  missingTables: [],
};

describeWithPostgres('concurrent ingestion into one Postgres store', (url) => {
  const schema = freshSchema('evident_concurrency');
  const databaseUrl = withSchema(url, schema);
  const root = mkdtempSync(join(tmpdir(), 'evident-concurrent-'));
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await dropSchemas(url, [schema]);
  });
  const ingest = (dir: string) =>
    run(process.execPath, [CLI, '--database-url', databaseUrl, 'ingest', dir], { cwd: root, timeout: 120_000 });
  const search = async (query: string) =>
    JSON.parse(
      (await run(process.execPath, [CLI, '--database-url', databaseUrl, 'search', query, '--json'], { cwd: root }))
        .stdout,
    ) as { doc_id: string }[];

  it('leaves a consistent store when two processes ingest the same files and then different files at once', async () => {
    const shared = join(root, 'shared');
    writeCorpus(shared, ['alpha', 'beta', 'gamma', 'delta'], 1);
    // Same files, same doc ids, at the same time (including one CSV table each).
    await Promise.all([ingest(shared), ingest(shared)]);

    // Different files at once, while the shared ones change under a third process.
    writeCorpus(join(root, 'left'), ['left1', 'left2', 'left3'], 1);
    writeCorpus(join(root, 'right'), ['right1', 'right2', 'right3'], 1);
    writeCorpus(shared, ['alpha', 'beta', 'gamma', 'delta'], 2);
    await Promise.all([ingest(join(root, 'left')), ingest(join(root, 'right')), ingest(shared)]);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect(await inconsistencies(client, schema)).toEqual(noInconsistencies);
      const docs = (await client.query<{ doc_id: string }>(`SELECT doc_id FROM "${schema}".documents ORDER BY doc_id`))
        .rows;
      expect(docs.map((d) => d.doc_id)).toEqual([
        'alpha-sales.csv',
        'alpha.md',
        'beta.md',
        'delta.md',
        'gamma.md',
        'left1-sales.csv',
        'left1.md',
        'left2.md',
        'left3.md',
        'right1-sales.csv',
        'right1.md',
        'right2.md',
        'right3.md',
      ]);
      // The shared files hold their second version only.
      const versions =
        await client.query(`SELECT count(*)::int AS n FROM "${schema}".chunks WHERE text LIKE '%version 1 %' AND doc_pk IN
        (SELECT pk FROM "${schema}".documents WHERE doc_id IN ('alpha.md', 'beta.md', 'gamma.md', 'delta.md'))`);
      expect(versions.rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
    for (const name of ['alpha', 'left2', 'right3']) {
      expect((await search(`token${name}`))[0]?.doc_id).toBe(`${name}.md`);
    }
  });
});
