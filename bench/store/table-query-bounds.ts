/**
 * What hostile table queries cost under the table query bounds: per query, how it ended, the wall time, the calling
 * process's peak RSS growth and (SQLite) the query process's peak RSS; then one react run whose model calls
 * table_query with a 120 MB result, and how much the store files grew.
 *
 *   node --import tsx bench/store/table-query-bounds.ts [--database-url postgres://…] [--json out.json]
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { AIMessage } from '@langchain/core/messages';
import type { Principal, TableData } from '../../src/domain/index.ts';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { Store } from '../../src/store/store.ts';
import { openAgent } from '../../src/testing/agent-client.ts';
import { dropSchemas, freshSchema } from '../../src/testing/postgres-test-database.ts';
import { RecordingChatModel } from '../../src/testing/recording-chat-model.ts';
import { openSampleCorpusStore } from '../../src/testing/sample-corpus-store.ts';
import { describeEnvironment } from '../environment.ts';

const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const databaseUrl = flag('--database-url');
const jsonOut = flag('--json');

const HOSTILE: Record<'sqlite' | 'postgresql', string[]> = {
  sqlite: [
    'SELECT zeroblob(300000000)',
    'SELECT hex(zeroblob(200000000))',
    'SELECT randomblob(300000000)',
    "SELECT printf('%.*c', 300000000, 'x')",
    "SELECT replace(hex(zeroblob(100000000)), '0', 'xx')",
    "WITH RECURSIVE s(x, n) AS (SELECT 'ab', 0 UNION ALL SELECT x || x, n + 1 FROM s WHERE n < 27) SELECT x FROM s",
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) SELECT hex(zeroblob(100000)) FROM n',
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) SELECT group_concat(hex(zeroblob(1000000))) FROM n',
    'SELECT hex(zeroblob(150000000)), hex(zeroblob(150000000)), hex(zeroblob(150000000))',
  ],
  postgresql: [
    "SELECT decode(repeat('00', 50000000), 'hex')",
    "SELECT repeat('x', 100000000)",
    "SELECT lpad('', 300000000, 'x')",
    "WITH RECURSIVE s(x, n) AS (SELECT 'ab'::text, 0 UNION ALL SELECT x || x, n + 1 FROM s WHERE n < 27) SELECT x FROM s",
    "SELECT repeat('x', 200000) FROM generate_series(1, 100000)",
    "SELECT string_agg(repeat('x', 1000000), '') FROM generate_series(1, 100)",
  ],
};

const member: Principal = { id: 'carol', groups: [], roles: ['member'] };
const admin: Principal = { id: 'root', groups: [], roles: ['admin'] };
const table: TableData = { title: 'orders', columns: [{ name: 'n', type: 'integer' }], rows: [[1], [2], [3]] };
const MB = 1024 * 1024;

/** Peak RSS of this process and of its children (the SQLite query process), sampled every 5 ms. */
function sampler() {
  const base = process.memoryUsage().rss;
  let parent = base;
  let child = 0;
  const childRss = () => {
    try {
      const pids = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
        readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
      );
      return pids.reduce(
        (sum, pid) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
        0,
      );
    } catch {
      return 0;
    }
  };
  const timer = setInterval(() => {
    parent = Math.max(parent, process.memoryUsage().rss);
    child = Math.max(child, childRss());
  }, 5);
  return () => {
    clearInterval(timer);
    return { parentGrowthMB: Math.round((parent - base) / MB), childPeakMB: Math.round(child / MB) };
  };
}

async function measure(store: Store, dialect: 'sqlite' | 'postgresql') {
  await store.putDocument({
    document: {
      docId: 'o.csv',
      source: 'o.csv',
      title: 'o',
      type: 'csv',
      contentHash: 'h',
      bytes: 1,
      acl: [],
      tags: [],
    },
    chunks: [{ id: 'o.csv#0', docId: 'o.csv', ordinal: 0, text: 'o', headingPath: [], startOffset: 0, endOffset: 1 }],
    keywordText: ['o'],
    vectors: [Float32Array.from([1, 0])],
    embedder: { id: 'bench', dimension: 2 },
    chapters: [],
    tables: [table],
  });
  const [{ sqlName } = { sqlName: '' }] = await store.listTables(admin);
  await store.queryTables(`SELECT count(*) FROM ${sqlName}`, member, { maxRows: 1, timeoutMs: 5000 });
  const rows = [];
  for (const sql of HOSTILE[dialect]) {
    const stop = sampler();
    const t = performance.now();
    const outcome = await store.queryTables(sql, member, { maxRows: 200, timeoutMs: 5000 }).then(
      (result) => `returned ${result.rows.length} rows`,
      (error: { code?: string; details?: { bound?: string } }) =>
        `${error.code}${error.details?.bound ? ` (${error.details.bound})` : ''}`,
    );
    const ms = Math.round(performance.now() - t);
    rows.push({ backend: dialect, sql, outcome, ms, ...stop() });
  }
  return rows;
}

async function agentRun() {
  const sample = await openSampleCorpusStore([{ name: 'alice', groups: ['legal'] }]);
  try {
    const alice = await sample.evident.principalFor('alice');
    const [orders] = await sample.evident.store.listTables(alice);
    const sql = `SELECT hex(zeroblob(20000000)) AS x FROM ${orders?.sqlName ?? ''} LIMIT 3`;
    const call = (name: string, args: Record<string, unknown>) =>
      new AIMessage({
        content: '',
        tool_calls: [{ id: `${name}-${randomUUID().slice(0, 8)}`, name, args, type: 'tool_call' }],
      });
    const model = new RecordingChatModel([
      call('table_query', { sql }),
      call('final_answer', {
        answer: 'No.',
        answerable: false,
        confidence: 0.1,
        citations: [],
        missing_information: ['x'],
      }),
    ]);
    const agent = await openAgent(sample.evident, 'react', { chat: { id: 'recording:bench', model } });
    const size = () =>
      [sample.db, `${sample.db}-wal`].reduce((sum, path) => sum + (existsSync(path) ? statSync(path).size : 0), 0);
    const before = size();
    const stop = sampler();
    const t = performance.now();
    await agent.ask({ question: 'q', principal: alice });
    const ms = Math.round(performance.now() - t);
    await agent.close();
    return { sql, ms, storeGrowthMB: Math.round(((size() - before) / MB) * 100) / 100, ...stop() };
  } finally {
    await sample.close();
  }
}

const results = [];
const sqlite = await openSqliteStore(':memory:');
results.push(...(await measure(sqlite, 'sqlite')));
await sqlite.close();
if (databaseUrl) {
  const schema = freshSchema('evident_bench_tq');
  const pg = await openPostgresStore(databaseUrl, { schema });
  try {
    results.push(...(await measure(pg, 'postgresql')));
  } finally {
    await pg.close();
    await dropSchemas(databaseUrl, [schema]);
  }
}
const run = await agentRun();

const environment = describeEnvironment('bench/store/table-query-bounds.ts', started, loadBefore);
console.log(
  `# Table query bounds (${environment.date}, ${environment.commit}, ${environment.cpus} × ${environment.nproc})\n`,
);
console.log(
  'Default bounds: maxRows 200, timeoutMs 5000, maxResultBytes 1 MiB, maxValueBytes 256 KiB, maxMemoryBytes 512 MiB.\n',
);
console.log('| backend | query | outcome | ms | caller RSS growth MB | query process peak RSS MB |');
console.log('|---|---|---|---:|---:|---:|');
for (const row of results) {
  console.log(
    `| ${row.backend} | \`${row.sql.slice(0, 70)}${row.sql.length > 70 ? '…' : ''}\` | ${row.outcome} | ${row.ms} | ${row.parentGrowthMB} | ${row.backend === 'sqlite' ? row.childPeakMB : '-'} |`,
  );
}
console.log(
  `\nreact run calling table_query with \`${run.sql}\`: ${run.ms} ms, store files grew ${run.storeGrowthMB} MB, caller RSS growth ${run.parentGrowthMB} MB.`,
);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ environment, results, run }, null, 2));
