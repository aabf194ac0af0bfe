import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { silentLogger } from '../logging/logger.ts';
import { withSchema } from '../store/postgres/drop-store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../testing/postgres-test-database.ts';
import { FolderSource } from './folder-source.ts';
import { syncSource } from './sync-source.ts';
import { syncDepsOf } from './open-sources.ts';

/** The same sync on Postgres: adds, an ACL-only change in place (the search filter follows it), a deletion. */
describeWithPostgres('folder sync on Postgres', (url) => {
  const schema = freshSchema('evident_sync');
  let dir: string;
  let evident: Evident;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-sync-pg-'));
    await mkdir(join(dir, 'docs'));
    evident = await createEvident(loadConfig({ env: {}, cwd: dir, flags: { databaseUrl: withSchema(url, schema) } }));
  });

  afterAll(async () => {
    await evident?.close();
    await rm(dir, { recursive: true, force: true });
    await dropSchemas(url, [schema]);
  });

  it('adds, applies an ACL-only change without rewriting the version, and deletes', async () => {
    const docs = join(dir, 'docs');
    const sync = () =>
      syncSource(new FolderSource(docs, { limits: evident.config.ingest, logger: silentLogger }), syncDepsOf(evident));
    await writeFile(join(docs, 'a.md'), '# A\n\nThe orchid memo.\n');
    await writeFile(join(docs, 'b.md'), '# B\n\nThe tulip memo.\n');
    expect((await sync()).added).toBe(2);
    const before = await evident.store.getDocument('a.md');
    const bob = { id: 'bob', groups: [], roles: ['member' as const] };
    expect((await evident.store.keywordSearch(['orchid'], bob, 5)).length).toBe(1);

    await writeFile(join(docs, 'a.md.acl.json'), '{"acl": ["group:legal"]}');
    await unlink(join(docs, 'b.md'));
    const report = await sync();
    expect(report.outcomes.map((o) => [o.docId, o.status])).toEqual([
      ['a.md', 'acl'],
      ['b.md', 'deleted'],
    ]);
    expect(await evident.store.getDocument('a.md')).toEqual({ ...before, acl: ['group:legal'] });
    expect(await evident.store.keywordSearch(['orchid'], bob, 5)).toEqual([]);
    expect(
      (await evident.store.keywordSearch(['orchid'], { id: 'alice', groups: ['legal'], roles: ['member'] }, 5)).length,
    ).toBe(1);
    expect((await evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => doc.docId)).toEqual(['a.md']);
  });
});
