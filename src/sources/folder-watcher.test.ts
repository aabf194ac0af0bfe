import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { silentLogger } from '../logging/logger.ts';
import { FolderSource } from './folder-source.ts';
import { FolderWatcher } from './folder-watcher.ts';
import type { SyncReport } from './sync-source.ts';
import { syncDepsOf } from './open-sources.ts';

let dir: string;
let evident: Evident;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-watcher-'));
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
});

afterEach(async () => {
  await evident.close();
  await rm(dir, { recursive: true, force: true });
});

const until = async (test: () => Promise<boolean> | boolean) => {
  const deadline = Date.now() + 15_000;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

it('polls where file events are not used, syncs one folder at a time, and stops cleanly', async () => {
  const docs = join(dir, 'docs');
  await mkdir(docs);
  const reports: SyncReport[] = [];
  const source = new FolderSource(docs, { limits: evident.config.ingest, logger: silentLogger });
  const watcher = new FolderWatcher([source], syncDepsOf(evident), {
    debounceMs: 20,
    intervalMs: 3_600_000,
    pollMs: 100,
    events: false,
    logger: silentLogger,
    onReport: (r) => reports.push(r),
  });
  expect(await watcher.start()).toEqual(['polling']);
  expect(reports).toHaveLength(1);
  const docIds = async () => (await evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => doc.docId);
  try {
    await writeFile(join(docs, 'a.md'), '# A\n\nPolled.\n');
    await writeFile(join(docs, 'keep.md'), '# Keep\n\nPolled too.\n');
    await until(async () => (await docIds()).length === 2);
    await unlink(join(docs, 'a.md'));
    await until(async () => (await docIds()).length === 1);
  } finally {
    await watcher.stop();
  }
  const after = reports.length;
  await writeFile(join(docs, 'b.md'), '# B\n\nAfter the stop.\n');
  await new Promise((r) => setTimeout(r, 300));
  expect(reports.length).toBe(after);
  expect(await docIds()).toEqual(['keep.md']);
});
