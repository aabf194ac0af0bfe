/**
 * Large and hostile request bodies against one server: does `GET /health` still answer while they arrive? Per attack,
 * the attack requests' statuses and times, and the /health latencies measured beside them. See bench/server/README.md.
 *
 *   node --import tsx bench/server/large-body.ts [--seconds 3] [--concurrency 4] [--timeout 30] [--only <text>] [--json out.json]
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { describeEnvironment, type Environment } from '../environment.ts';
import type { ServerReady } from './bench-server.ts';
import { nearestRank } from '../retrieval/stats.ts';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '4' },
    timeout: { type: 'string', default: '30' },
    json: { type: 'string' },
    /** Only the attacks whose name contains this text (the baseline always runs). */
    only: { type: 'string' },
  },
  strict: true,
});

const positive = (name: string, value: string): number => {
  const parsed = Number(value);
  if (!(parsed > 0)) throw new Error(`--${name} must be a positive number, got ${JSON.stringify(value)}`);
  return parsed;
};
const seconds = positive('seconds', flags.seconds);
const concurrency = positive('concurrency', flags.concurrency);
const timeoutMs = positive('timeout', flags.timeout) * 1000;

interface Attack {
  name: string;
  /** One attack request; resolves with its status (0: no answer within --timeout). */
  send(url: string, key: string): Promise<number>;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

async function postJson(url: string, key: string, path: string, body: Buffer): Promise<number> {
  try {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/** A chunked body with no Content-Length that goes on until the server answers (or --timeout). */
function endlessBody(url: string, key: string): Promise<number> {
  return new Promise((done) => {
    const req = httpRequest(new URL('/v1/search', url), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const timer = setInterval(() => req.write(chunk), 1);
    const stop = setTimeout(() => finish(0), timeoutMs);
    const finish = (status: number) => {
      clearInterval(timer);
      clearTimeout(stop);
      req.destroy();
      done(status);
    };
    req.on('error', () => finish(0));
    req.on('response', (response) => {
      response.resume();
      finish(response.statusCode ?? 0);
    });
    req.write('{"query": "');
  });
}

/** Bodies built once, before any timing, so the load generator's own work does not delay its /health probes. */
const BODIES = {
  twoMegabytes: Buffer.from(JSON.stringify({ query: words(300_000).slice(0, 2_000_000) })),
  megabyteQuery: Buffer.from(JSON.stringify({ query: words(200_000).slice(0, 1_000_000) })),
  deep: Buffer.from(`{"metadata": {"a": ${'['.repeat(200_000)}${']'.repeat(200_000)}}}`),
  fiftyMegabytes: Buffer.from(JSON.stringify({ metadata: { note: 'x'.repeat(50 * 1024 * 1024) } })),
  largestAccepted: Buffer.from(JSON.stringify({ query: words(128) })),
};

const ATTACKS: Attack[] = [
  { name: 'none (baseline)', send: async () => 200 },
  { name: '2 MB search body', send: (url, key) => postJson(url, key, '/v1/search', BODIES.twoMegabytes) },
  { name: 'endless chunked body', send: endlessBody },
  {
    name: '1 MB query inside the body limit',
    send: (url, key) => postJson(url, key, '/v1/search', BODIES.megabyteQuery),
  },
  { name: '200,000-deep JSON', send: (url, key) => postJson(url, key, '/threads', BODIES.deep) },
  { name: '50 MB thread metadata', send: (url, key) => postJson(url, key, '/threads', BODIES.fiftyMegabytes) },
  {
    name: 'largest accepted search (128 terms)',
    send: (url, key) => postJson(url, key, '/v1/search', BODIES.largestAccepted),
  },
];

interface AttackResult {
  attack: string;
  requests: number;
  statuses: Record<string, number>;
  attackMs: { p50: number; max: number };
  health: { probes: number; unanswered: number; p50Ms: number; p99Ms: number; maxMs: number };
}

async function probeHealth(url: string): Promise<number | undefined> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return performance.now() - started;
  } catch {
    return undefined;
  }
}

/** `concurrency` attackers in a loop for `seconds`, one /health prober beside them; every request is awaited. */
async function measure(url: string, key: string, attack: Attack): Promise<AttackResult> {
  const until = performance.now() + seconds * 1000;
  const attackTimes: number[] = [];
  const statuses: Record<string, number> = {};
  const attacker = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const status = await attack.send(url, key);
      attackTimes.push(performance.now() - started);
      const label = status === 0 ? 'no answer' : String(status);
      statuses[label] = (statuses[label] ?? 0) + 1;
      if (attack.name.startsWith('none')) await new Promise((r) => setTimeout(r, 50));
    }
  };
  const healthTimes: number[] = [];
  let unanswered = 0;
  const prober = async () => {
    while (performance.now() < until) {
      const ms = await probeHealth(url);
      if (ms === undefined) unanswered++;
      else healthTimes.push(ms);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all([...Array.from({ length: concurrency }, attacker), prober()]);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const percentile = (values: number[], p: number) =>
    nearestRank(
      [...values].sort((a, b) => a - b),
      p,
    );
  return {
    attack: attack.name,
    requests: attackTimes.length,
    statuses,
    attackMs: { p50: round(percentile(attackTimes, 50)), max: round(Math.max(...attackTimes)) },
    health: {
      probes: healthTimes.length + unanswered,
      unanswered,
      p50Ms: round(percentile(healthTimes, 50)),
      p99Ms: round(percentile(healthTimes, 99)),
      maxMs: round(healthTimes.length ? Math.max(...healthTimes) : Number.NaN),
    },
  };
}

function format(environment: Environment, results: AttackResult[]): string {
  const lines = [
    `large request bodies vs GET /health — ${environment.date}, node ${environment.node}, ${environment.nproc} cores, commit ${environment.commit}, load ${environment.loadBefore.toFixed(2)}`,
    `${concurrency} attackers for ${seconds} s per attack, one /health prober beside them (--timeout ${timeoutMs / 1000} s)`,
    '',
    '| attack | requests | statuses | attack p50 / max ms | /health probes (unanswered) | /health p50 / p99 / max ms |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const statuses = Object.entries(r.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    lines.push(
      `| ${r.attack} | ${r.requests} | ${statuses} | ${r.attackMs.p50} / ${r.attackMs.max} | ${r.health.probes} (${r.health.unanswered}) | ${r.health.p50Ms} / ${r.health.p99Ms} / ${r.health.maxMs} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadavg()[0] ?? 0;
  const script = resolve(fileURLToPath(import.meta.url), '../bench-server.ts');
  const child = spawn(process.execPath, [...process.execArgv, script], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const ready = JSON.parse(String((await lines.next()).value)) as ServerReady;
    const key = ready.keys.alice;
    if (!key) throw new Error('the bench server printed no key for alice');
    const results: AttackResult[] = [];
    for (const attack of ATTACKS.filter((a, i) => i === 0 || !flags.only || a.name.includes(flags.only))) {
      process.stderr.write(`${attack.name}…\n`);
      results.push(await measure(ready.url, key, attack));
    }
    const environment = describeEnvironment('bench/server/large-body.ts', started, loadBefore);
    process.stdout.write(`${format(environment, results)}\n`);
    if (flags.json)
      writeFileSync(
        resolve(flags.json),
        `${JSON.stringify({ environment, settings: { seconds, concurrency, timeoutMs }, results }, null, 2)}\n`,
      );
  } finally {
    child.kill();
  }
}

await main();
