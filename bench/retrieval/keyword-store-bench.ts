/**
 * `npm run bench:keyword -- --store <folder>`: the keyword channel on a synthetic store from `bench:retrieval
 * --store-dir`, its own postings (store.keywordSearch) against the FTS5 ranking it used before (`rankKeywords` over
 * chunk_fts, MaxScore with FTS5 doing the scoring) on the same file, for a member and an admin, interleaved per query
 * (the row order rotating), with the queries and channel depth `pipeline-compare.ts` uses. Both rankings must agree.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import { principalAclKeys, type Principal } from '../../src/domain/index.ts';
import { percentile, mean } from '../../src/eval/metrics/ranking-metrics.ts';
import { createEvident } from '../../src/evident.ts';
import { parseSearchTerms } from '../../src/store/search-terms.ts';
import { SqliteConnection } from '../../src/store/sqlite/connection.ts';
import { rankKeywords } from '../../src/store/sqlite/keyword-ranking.ts';
import { TermStats } from '../../src/store/sqlite/term-stats.ts';
import { aclCondition, aclParams } from '../../src/store/sqlite/acl-sql.ts';
import { ftsMatch } from '../../src/store/sqlite/keyword-query.ts';
import { describeEnvironment } from '../environment.ts';
import { generateQueries, SyntheticCorpus } from './corpus.ts';

const MEMBER: Principal = { id: 'bench-user', groups: ['engineering', 'support'], roles: ['member'] };
const ADMIN: Principal = { id: 'bench-admin', groups: [], roles: ['admin'] };

export async function keywordStoreBench(options: { dir: string; queries: number; warmup: number }): Promise<void> {
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const db = join(options.dir, 'bench.db');
  const openStarted = performance.now();
  const evident = await createEvident(loadConfig({ env: {}, cwd: options.dir, flags: { db } }));
  const openMs = performance.now() - openStarted;
  const conn = SqliteConnection.open(db);
  const stats = new TermStats(conn);
  const record = JSON.parse(readFileSync(join(options.dir, 'ingest.json'), 'utf8')) as {
    documents: number;
    seed: number;
  };
  const seed = 42;
  const corpus = new SyntheticCorpus({ seed });
  const depth = evident.config.retrieval.channelDepth;
  const termsOf = async (text: string) =>
    ((await evident.search.search(text, MEMBER, { rerank: false, channels: ['bm25'] })).terms ?? []) as string[];
  const queries = await Promise.all(
    generateQueries(corpus, record.documents, options.queries, seed + 1).map((q) => termsOf(q.text)),
  );
  const warm = await Promise.all(
    generateQueries(corpus, record.documents, options.warmup, seed + 2).map((q) => termsOf(q.text)),
  );

  const previous = (principal: Principal) => (terms: string[]) =>
    conn.db.transaction(() =>
      rankKeywords(conn, stats, parseSearchTerms(terms), principalAclKeys(principal), depth).map((row) => row.chunkId),
    )();
  const postings = (principal: Principal) => async (terms: string[]) =>
    (await evident.store.keywordSearch(terms, principal, depth)).map((hit) => hit.chunkId);
  const rows: { name: string; run: (terms: string[]) => Promise<string[]> | string[] }[] = [
    { name: 'keyword channel, own postings (block-max MaxScore), member', run: postings(MEMBER) },
    { name: 'keyword channel, own postings (block-max MaxScore), admin', run: postings(ADMIN) },
    { name: 'before: MaxScore over FTS5 bm25() (rankKeywords), member', run: previous(MEMBER) },
    { name: 'before: MaxScore over FTS5 bm25() (rankKeywords), admin', run: previous(ADMIN) },
  ];
  for (const terms of warm) for (const row of rows) await row.run(terms);
  const ms = rows.map(() => [] as number[]);
  const cpu = rows.map(() => [] as number[]);
  const results = rows.map(() => [] as string[][]);
  const loopBefore = loadavg()[0] ?? 0;
  for (const [q, terms] of queries.entries()) {
    for (let i = 0; i < rows.length; i++) {
      const r = (q + i) % rows.length;
      const cpuStart = process.cpuUsage();
      const t = performance.now();
      const ids = await (rows[r] as (typeof rows)[number]).run(terms);
      (ms[r] as number[]).push(performance.now() - t);
      const used = process.cpuUsage(cpuStart);
      (cpu[r] as number[]).push((used.user + used.system) / 1000);
      (results[r] as string[][])[q] = ids;
    }
  }
  const loopAfter = loadavg()[0] ?? 0;
  const differ = (a: number, b: number) =>
    queries.filter((_, q) => JSON.stringify(results[a]?.[q]) !== JSON.stringify(results[b]?.[q])).length;
  // The reference, untimed: one FTS5 query ranking every matching visible chunk by bm25().
  const plain = (principal: Principal, terms: string[]) => {
    const keys = principalAclKeys(principal);
    return (
      conn
        .stmt(
          `SELECT c.id AS chunkId FROM chunk_fts JOIN chunks c ON c.pk = chunk_fts.rowid
           WHERE chunk_fts MATCH @match${aclCondition('c.doc_pk', keys)} ORDER BY bm25(chunk_fts), c.pk LIMIT @depth`,
        )
        .all({ match: ftsMatch(parseSearchTerms(terms)), depth, ...aclParams(keys) }) as { chunkId: string }[]
    ).map((row) => row.chunkId);
  };
  const reference = [MEMBER, ADMIN].map((principal) => queries.map((terms) => JSON.stringify(plain(principal, terms))));
  const offReference = (r: number) =>
    queries.filter((_, q) => JSON.stringify(results[r]?.[q]) !== reference[r % 2]?.[q]).length;
  const env = describeEnvironment('bench/retrieval/keyword-vs-fts5.ts --store', started, loadBefore);
  const f = (value: number) => value.toFixed(2);
  const lines = [
    `# Keyword channel at ${(await evident.store.stats()).chunks.toLocaleString('en')} chunks — ${queries.length} queries, depth ${depth}`,
    '',
    `${env.date}, node ${env.node}, ${env.cpus} × ${env.nproc}, commit ${env.commit}. Load average (1 min): ${f(loadBefore)} at start, ` +
      `${f(loopBefore)} → ${f(loopAfter)} during the timing loop; store opened (and migrated if needed) in ${f(openMs / 1000)} s. ` +
      `Rows interleaved per query, order rotating, after ${warm.length} warm-up queries; p50/p95 nearest-rank.`,
    '',
    '| row | p50 ms | p95 ms | CPU ms (mean) |',
    '|---|---:|---:|---:|',
    ...rows.map(
      (row, r) =>
        `| ${row.name} | ${f(percentile(ms[r] as number[], 50))} | ${f(percentile(ms[r] as number[], 95))} | ${f(mean(cpu[r] as number[]))} |`,
    ),
    '',
    `Queries whose ranked chunk ids differ between the two: member ${differ(0, 2)}, admin ${differ(1, 3)}. ` +
      `Against a plain \`ORDER BY bm25(chunk_fts), rowid\` over every match (the exact ranking): own postings ` +
      `${offReference(0)} (member) and ${offReference(1)} (admin), FTS5 MaxScore ${offReference(2)} and ${offReference(3)} ` +
      '(it leaves out terms whose IDF FTS5 clamps to 1e-6 when the others fill the top k, which reorders near-ties).',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  conn.close();
  await evident.close();
}
