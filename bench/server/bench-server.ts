/**
 * The server under load, in a process of its own so the load generator's work does not share its event loop: the
 * sample corpus in a fresh SQLite store, the offline `rag` agent, four users with keys, on 127.0.0.1. Prints
 * `{url, keys}` as one JSON line once it listens. Each `usage` line on stdin is answered with its CPU time so far (so
 * the load generator can take the CPU of a measured batch alone); when stdin closes it shuts down and prints its own
 * resource use.
 */
import { createInterface } from 'node:readline';
import { openAgentRuntime } from '../../src/agent/agent-runtime.ts';
import { startApiTestServer } from '../../src/testing/api-test-server.ts';

export interface ServerReady {
  url: string;
  keys: Record<string, string>;
}

/** CPU time of the server process so far, ms. */
export interface ServerCpu {
  cpuUserMs: number;
  cpuSystemMs: number;
}

export interface ServerUsage {
  maxRssMiB: number;
  cpuUserMs: number;
  cpuSystemMs: number;
}

const api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
await api.evident.store.upsertUser({ name: 'carol', groups: ['legal', 'finance'] });
await api.evident.store.upsertUser({ name: 'dave', groups: ['support'] });
const keys = {
  alice: api.keys.alice,
  bob: api.keys.bob,
  carol: (await api.evident.store.createApiKey('carol')).key,
  dave: (await api.evident.store.createApiKey('dave')).key,
};
const ready: ServerReady = { url: api.url, keys };
process.stdout.write(`${JSON.stringify(ready)}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() !== 'usage') return;
  const { user, system } = process.cpuUsage();
  const cpu: ServerCpu = { cpuUserMs: user / 1000, cpuSystemMs: system / 1000 };
  process.stdout.write(`${JSON.stringify(cpu)}\n`);
});
lines.on('close', () => {
  void api.close().then(() => {
    const usage = process.resourceUsage();
    const report: ServerUsage = {
      maxRssMiB: Math.round((usage.maxRSS / 1024) * 10) / 10,
      cpuUserMs: Math.round(usage.userCPUTime / 1000),
      cpuSystemMs: Math.round(usage.systemCPUTime / 1000),
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
    process.exit(0);
  });
});
