import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';

export const SAMPLE_CORPUS = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'samples/corpus');

export interface SampleCorpusStore {
  dir: string;
  db: string;
  evident: Evident;
  /** Closes Evident and removes the folder. */
  close(): Promise<void>;
}

/** A user to add: a member of `groups`, or an admin. */
export interface SampleUser {
  name: string;
  groups?: string[];
  admin?: boolean;
}

/**
 * A fresh SQLite store in a temporary folder with `users` added and the sample corpus ingested (ACLs included),
 * through the services the CLI uses, not the CLI itself.
 */
export async function openSampleCorpusStore(users: readonly SampleUser[]): Promise<SampleCorpusStore> {
  const dir = await mkdtemp(join(tmpdir(), 'evident-sample-'));
  const db = join(dir, 'store.db');
  const evident = await createEvident(loadConfig({ flags: { db } }));
  for (const user of users)
    await evident.store.upsertUser({
      name: user.name,
      groups: user.groups ?? [],
      roles: user.admin ? ['admin'] : ['member'],
    });
  const summary = await evident.ingestor.ingest([SAMPLE_CORPUS]);
  if (summary.failed > 0)
    throw new Error(
      `the sample corpus did not ingest: ${JSON.stringify(summary.outcomes.filter((o) => o.status === 'failed'))}`,
    );
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
