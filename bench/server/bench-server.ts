/**
 * The server under load, in a process of its own so the load generator's work does not share its event loop: the
 * sample corpus in a fresh SQLite store, the offline `rag` agent, four users with keys, on 127.0.0.1. Prints
 * `{url, keys}` as one JSON line once it listens; when stdin closes it shuts down and prints its own resource use.
 */
import { openAgentRuntime } from '../../src/agent/agent-runtime.ts';
import { startApiTestServer } from '../../src/testing/api-test-server.ts';

export interface ServerReady {
  url: string;
  keys: Record<string, string>;
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

process.stdin.resume();
process.stdin.on('end', () => {
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
