/**
 * CPU time of one keyword query, which the machine's load does not inflate as it does wall time: SQLite's in this
 * process, PostgreSQL's in this process plus its server backend's (read from /proc, so the server must run on this
 * machine), for today's query and the one before schema 8 (keyword-query-v7.ts), on stores kept by
 * postgres-search.ts --keep <dir>.
 *
 *   node --import tsx bench/store/postgres-keyword-cpu.ts --database-url postgres://… --keep <dir> [--chunks 100000] [--queries 100]
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
import { keywordSearchV7 } from './keyword-query-v7.ts';

const { values: flags } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    keep: { type: 'string' },
    chunks: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '100' },
    seed: { type: 'string', default: '42' },
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

const client = new pg.Client({ connectionString: target.connectionString });
await client.connect();
await client.query(`SET search_path = "${target.schema}"`);
const backend = Number((await client.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]?.p);
const sqlite = await createEvident(benchConfig(flags.keep, join(flags.keep, 'bench.db')));
const documents = (await sqlite.store.listDocuments({ id: 'bench-admin', groups: [], roles: ['admin'] })).length;
const queries = generateQueries(
  new SyntheticCorpus({ seed: Number(flags.seed) }),
  documents,
  Number(flags.queries),
  Number(flags.seed) + 1,
).map((q) => analyzeQuery(q.text));
const keys = principalAclKeys(MEMBER);
const c = client as unknown as PoolClient;
const today = async (terms: string[]) => {
  const ranked = await rankByBm25(c, { corpus: CORPUS.chunks, table: 'chunks' }, terms, aclFilter('d', keys, 1), 100);
  await client.query('SELECT pk, id FROM chunks WHERE pk = ANY($1::bigint[])', [ranked.map((r) => r.pk)]);
};
const variants: [string, (terms: string[]) => Promise<unknown>, boolean][] = [
  ['SQLite', (terms) => sqlite.store.keywordSearch(terms, MEMBER, 100), false],
  ['PostgreSQL, schema 8', today, true],
  ['PostgreSQL, before schema 8', (terms) => keywordSearchV7(c, terms, keys, 100), true],
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
  const serverBefore = cpuMs(backend);
  const started = performance.now();
  for (const terms of queries) await run(terms);
  const used = process.cpuUsage(clientBefore);
  const n = queries.length;
  console.log(
    `| ${name} | ${((used.user + used.system) / 1000 / n).toFixed(2)} | ${server ? ((cpuMs(backend) - serverBefore) / n).toFixed(2) : '—'} | ${((performance.now() - started) / n).toFixed(1)} |`,
  );
}
await sqlite.close();
await client.end();
