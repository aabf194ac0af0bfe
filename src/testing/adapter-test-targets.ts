import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openAgentRuntime } from '../agent/agent-runtime.ts';
import type { EvidentTarget } from '../adapters/core/connect-evident.ts';
import { startApiTestServer, type ApiTestServer } from './api-test-server.ts';
import { SAMPLE_CORPUS } from './sample-corpus-store.ts';

/** The legal-only contract of the sample corpus: alice (legal) may read it, bob (engineering) may not. */
export const RESTRICTED_DOC = 'contracts/ct-2024-0193.md';
export const FEE_QUESTION = 'What is the termination fee of contract CT-2024-0193?';

/** Figures, names and whole sentences of the restricted contract, none of which FEE_QUESTION itself contains. */
export async function restrictedSecrets(): Promise<string[]> {
  const contract = await readFile(join(SAMPLE_CORPUS, RESTRICTED_DOC), 'utf8');
  const sentences = contract
    .split(/(?<=\.)\s+|\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 30);
  return ['$48,000', 'Northwind', 'warehouse and last-mile', ...sentences];
}

/** Each way an adapter reaches Evident, for one user of the test server: its own Evident in process, or its HTTP API. */
export type AdapterMode = 'in-process' | 'http';
export const ADAPTER_MODES: readonly AdapterMode[] = ['in-process', 'http'];

export interface AdapterTestServer {
  api: ApiTestServer;
  /** alice (legal), bob (engineering) or the admin, reached the given way. */
  target(mode: AdapterMode, who: 'alice' | 'bob' | 'admin'): EvidentTarget;
  close(): Promise<void>;
}

/**
 * The real server over the sample corpus (agents served, offline strategies), and the same Evident used in process:
 * both ways see one store, so a test can ask each the same thing.
 */
export async function startAdapterTestServer(): Promise<AdapterTestServer> {
  const api = await startApiTestServer({ agents: (evident) => openAgentRuntime(evident) });
  await api.evident.store.upsertUser({ name: 'root', groups: [], roles: ['admin'] });
  return {
    api,
    target(mode, who) {
      if (mode === 'http') return { url: api.url, apiKey: api.keys[who] };
      return { evident: api.evident, user: who === 'admin' ? 'root' : who };
    },
    close: () => api.close(),
  };
}
