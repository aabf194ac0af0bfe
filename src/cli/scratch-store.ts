import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropPostgresStore, withSchema } from '../store/postgres/drop-store.ts';
import type { GlobalOptions } from './context.ts';

/**
 * Runs `work` with options naming the store an evaluation may fill: the one named explicitly (`--db`, or a
 * database URL with `?schema=`), else a scratch store removed afterwards — a SQLite file in a temporary folder,
 * or a fresh schema in the configured PostgreSQL database. An evaluation must not mix its corpus into the user's store.
 */
export async function withScratchStore<T>(
  global: GlobalOptions,
  prefix: string,
  work: (options: GlobalOptions) => Promise<T>,
): Promise<T> {
  const databaseUrl = global.databaseUrl ?? process.env.EVIDENT_DATABASE_URL;
  if (databaseUrl) {
    if (new URL(databaseUrl).searchParams.has('schema')) return work({ ...global, databaseUrl });
    const scratch = withSchema(databaseUrl, `${prefix.replace(/\W+/g, '_')}${randomBytes(4).toString('hex')}`);
    try {
      return await work({ ...global, databaseUrl: scratch });
    } finally {
      await dropPostgresStore(scratch);
    }
  }
  if (global.db) return work(global);
  const folder = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await work({ ...global, db: join(folder, 'eval.db') });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
