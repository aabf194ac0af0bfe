/**
 * CPU time of one keyword query, which the machine's load does not inflate as it does wall time: SQLite's in this
 * process, PostgreSQL's in this process plus its server backend's (read from /proc, so the server must run on this
 * machine), for this checkout's ranking and, with --baseline, another checkout's on a store of its schema
 * (--baseline-url, as postgres-search.ts takes them), on stores kept by postgres-search.ts --keep <dir>.
 *
 *   node --import tsx bench/store/postgres-keyword-cpu.ts --database-url postgres://… --keep <dir> [--chunks 100000] [--queries 100]
 *        [--baseline <checkout> --baseline-url postgres://…]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg, { type PoolClient } from 'pg';
import { createEvident } from '../../src/evident.ts';
import { principalAclKeys } from '../../src/domain/index.ts';
import { aclFilter } from '../../src/store/postgres/acl-sql.ts';
import { parsePostgresUrl } from '../../src/store/postgres/connection.ts';
import { withSchema } from '../../src/store/postgres/drop-store.ts';
import { CORPUS } from '../../src/store/postgres/keyword-index.ts';
import { rankByBm25 } from '../../src/store/postgres/keyword-ranking.ts';
import { analyzeQuery } from '../../src/text/analyzer.ts';
import { generateQueries, SyntheticCorpus } from '../retrieval/corpus.ts';
import { benchConfig, MEMBER } from '../retrieval/measure-size.ts';

const { values: flags } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    keep: { type: 'string' },
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '100' },
    seed: { type: 'string', default: '42' },
    baseline: { type: 'string' },
    'baseline-url': { type: 'string' },
  },
  strict: true,
});
if (!flags['database-url'] || !flags.keep)
  throw new Error('--database-url and --keep <dir of postgres-search.ts> are required');
const target = parsePostgresUrl(withSchema(flags['database-url'], `evident_pgsearch_${flags.chunks}`));
/** utime + stime of a process, ms (clock ticks at 100 Hz). */
const cpuMs = (pid: number): number => {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** A connection to a store's schema, with its server backend's pid. */
const connect = async (url: { connectionString: string; schema: string }) => {
  const client = new pg.Client({ connectionString: url.connectionString });
  await client.connect();
  await client.query(`SET search_path = "${url.schema}"`);
  const backend = Number((await client.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]?.p);
  return { client, backend, c: client as unknown as PoolClient };
};
const today = await connect(target);
type Rank = typeof rankByBm25;
const base = flags.baseline
  ? {
      ...(await connect(parsePostgresUrl(withSchema(flags['baseline-url'] ?? '', `evident_pgsearch_${flags.chunks}`)))),
      rank: ((await import(join(flags.baseline, 'src/store/postgres/keyword-ranking.ts'))) as { rankByBm25: Rank })
        .rankByBm25,
    }
  : undefined;
const sqlite = await createEvident(benchConfig(flags.keep, join(flags.keep, 'bench.db')));
const documents = (await sqlite.store.listDocuments({ id: 'bench-admin', groups: [], roles: ['admin'] })).length;
const queries = generateQueries(
  new SyntheticCorpus({ seed: Number(flags.seed) }),
  documents,
  Number(flags.queries),
  Number(flags.seed) + 1,
).map((q) => analyzeQuery(q.text));
const keys = principalAclKeys(MEMBER);
/** The store's keyword channel as search.ts runs it: the ranking, then the chunks' ids. */
const channel = (on: { c: PoolClient }, rank: Rank) => async (terms: string[]) => {
  const ranked = await rank(on.c, { corpus: CORPUS.chunks, table: 'chunks' }, terms, aclFilter('d', keys, 1), 100);
  await on.c.query('SELECT pk, id FROM chunks WHERE pk = ANY($1::bigint[])', [ranked.map((r) => r.pk)]);
};
const variants: [string, (terms: string[]) => Promise<unknown>, number | undefined][] = [
  ['SQLite', (terms) => sqlite.store.keywordSearch(terms, MEMBER, 100), undefined],
  ['PostgreSQL, this checkout', channel(today, rankByBm25), today.backend],
  ...(base
    ? [
        ['PostgreSQL, baseline checkout', channel(base, base.rank), base.backend] as [
          string,
          (terms: string[]) => Promise<unknown>,
          number,
        ],
      ]
    : []),
];
console.log(
  `\nkeyword channel, member, limit 100, ${queries.length} queries (load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')})\n`,
);
console.log('| query | client CPU ms/query | server CPU ms/query | wall ms/query |\n|---|---:|---:|---:|');
for (const [name, run, server] of variants) {
  for (const terms of queries.slice(0, 10)) await run(terms);
  const clientBefore = process.cpuUsage();
  const serverBefore = server === undefined ? 0 : cpuMs(server);
  const started = performance.now();
  for (const terms of queries) await run(terms);
  const used = process.cpuUsage(clientBefore);
  const n = queries.length;
  console.log(
    `| ${name} | ${((used.user + used.system) / 1000 / n).toFixed(2)} | ${server === undefined ? '—' : ((cpuMs(server) - serverBefore) / n).toFixed(2)} | ${((performance.now() - started) / n).toFixed(1)} |`,
  );
}
await sqlite.close();
await today.client.end();
await base?.client.end();
