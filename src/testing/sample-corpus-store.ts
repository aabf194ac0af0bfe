import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { runCli } from './run-cli.ts';

export const SAMPLE_CORPUS = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'samples/corpus');

export interface SampleCorpusStore {
  dir: string;
  db: string;
  evident: Evident;
  /** Closes Evident and removes the folder. */
  close(): Promise<void>;
}

/**
 * A fresh SQLite store in a temporary folder with `users` added (each the arguments of `evident users add`, e.g.
 * `['alice', '--groups', 'legal']`) and the sample corpus ingested, both through the real CLI.
 */
export async function openSampleCorpusStore(users: readonly (readonly string[])[]): Promise<SampleCorpusStore> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-sample-'));
  const db = join(dir, 'store.db');
  for (const args of [...users.map((user) => ['users', 'add', ...user]), ['ingest', SAMPLE_CORPUS]]) {
    const run = await runCli(['--db', db, ...args]);
    if (run.code !== 0) throw new Error(`evident ${args.join(' ')} failed: ${run.stderr}`);
  }
  const evident = await createEvident(loadConfig({ flags: { db } }));
  return {
    dir,
    db,
    evident,
    async close() {
      await evident.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
