import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { silentLogger } from '../logging/logger.ts';
import { folderKey, parseFolderSource } from './folder-origin.ts';
import { FolderSource } from './folder-source.ts';
import { syncSource, type SyncReport } from './sync-source.ts';
import { syncDepsOf } from './open-sources.ts';

let dir: string;
let docs: string;
let evident: Evident;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-sync-'));
  docs = join(dir, 'docs');
  await mkdir(docs);
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await evident.close();
  await rm(dir, { recursive: true, force: true });
});

const write = (name: string, text: string, root = docs) => writeFile(join(root, name), text);
const folder = (root = docs) => new FolderSource(root, { limits: evident.config.ingest, logger: silentLogger });
const sync = (root = docs, dryRun = false) => syncSource(folder(root), syncDepsOf(evident), { dryRun });
const statuses = (report: SyncReport) => Object.fromEntries(report.outcomes.map((o) => [o.docId, o.status]));
const docIds = async () => (await evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => doc.docId).sort();
const plan = (report: SyncReport) =>
  report.plan.map((step) => `${step.action} ${'item' in step ? step.item.docId : step.stored.docId}`);

describe('evident sync <dir>: the store matches the folder', () => {
  it('adds, updates, renames and deletes; a dry run plans without writing', async () => {
    await write('a.md', '# A\n\nAlpha orchid text.\n');
    await write('b.md', '# B\n\nBeta text.\n');
    expect(statuses(await sync())).toEqual({ 'a.md': 'added', 'b.md': 'added' });
    expect(await docIds()).toEqual(['a.md', 'b.md']);
    // The origin is recorded without the server's path: folder:<key of the real path>/<doc_id>.
    const source = (await evident.store.getDocument('a.md'))?.source ?? '';
    expect(parseFolderSource(source)).toEqual({ key: folderKey(await realpath(docs)), docId: 'a.md' });
    expect(source).not.toContain(dir);
    expect(parseFolderSource('a.md')).toBeUndefined();
    expect(parseFolderSource('https://example.com/a.md')).toBeUndefined();
    expect(statuses(await sync())).toEqual({ 'a.md': 'unchanged', 'b.md': 'unchanged' });

    await write('a.md', '# A\n\nAlpha orchid text, edited.\n');
    await rename(join(docs, 'b.md'), join(docs, 'c.md'));
    await write('new.txt', 'A new plain text file.\n');
    const dry = await sync(docs, true);
    expect(plan(dry)).toEqual(['update a.md', 'add c.md', 'add new.txt', 'delete b.md']);
    expect(dry.outcomes).toEqual([]);
    expect(await docIds()).toEqual(['a.md', 'b.md']); // nothing written

    const report = await sync();
    expect(statuses(report)).toEqual({ 'a.md': 'updated', 'c.md': 'added', 'new.txt': 'added', 'b.md': 'deleted' });
    expect(await docIds()).toEqual(['a.md', 'c.md', 'new.txt']);
    const hits = await evident.store.keywordSearch(['beta'], LOCAL_OPERATOR, 5);
    expect(hits.map((hit) => hit.chunkId.split('#')[0])).toEqual(['c.md']); // the deleted document is not searchable

    await unlink(join(docs, 'new.txt'));
    expect(statuses(await sync())).toMatchObject({ 'new.txt': 'deleted' });
    expect(await docIds()).toEqual(['a.md', 'c.md']);
  });

  it('applies a sidecar or front-matter ACL change in place: nothing re-read into chunks, re-embedded or rewritten', async () => {
    await write('memo.md', '---\nacl: [group:legal]\n---\n# Memo\n\nThe orchid budget memo.\n');
    await write('plan.md', '# Plan\n\nThe orchid plan.\n');
    await sync();
    const before = await evident.store.getDocument('memo.md');
    const chunksBefore = await evident.store.getChunks(['memo.md#0', 'plan.md#0'], LOCAL_OPERATOR);
    const planBefore = await evident.store.getDocument('plan.md');
    const bob = { id: 'bob', groups: [], roles: ['member' as const] };
    expect((await evident.store.listDocuments(bob)).map((doc) => doc.docId)).toEqual(['plan.md']);

    await write('memo.md', '---\nacl: [user:bob]\n---\n# Memo\n\nThe orchid budget memo.\n'); // front matter: content hash moves
    await write('plan.md.acl.json', '{"acl": ["group:legal"]}'); // sidecar: content the same
    const embedded: string[] = [];
    const record = (texts: readonly string[]) => void embedded.push(...texts);
    const { embed, embedAnalysed } = evident.embedder;
    vi.spyOn(evident.embedder, 'embed').mockImplementation(
      (texts, kind) => (record(texts), embed.call(evident.embedder, texts, kind)),
    );
    if (embedAnalysed) {
      vi.spyOn(evident.embedder, 'embedAnalysed').mockImplementation(
        (texts, analysed) => (record(texts), embedAnalysed.call(evident.embedder, texts, analysed)),
      );
    }
    const report = await sync();
    expect(statuses(report)).toEqual({ 'memo.md': 'updated', 'plan.md': 'acl' });
    // The front-matter edit is an edit of the file (its bytes changed) and is re-embedded; the sidecar change is not.
    expect(embedded.some((text) => text.includes('orchid budget memo'))).toBe(true);
    expect(embedded.some((text) => text.includes('orchid plan'))).toBe(false);
    const planAfter = await evident.store.getDocument('plan.md');
    expect(planAfter).toEqual({ ...planBefore, acl: ['group:legal'] }); // same ingested_at, hash, chunk count
    expect(await evident.store.getChunks(['plan.md#0'], LOCAL_OPERATOR)).toEqual(
      chunksBefore.filter((c) => c.docId === 'plan.md'),
    );
    expect((await evident.store.listDocuments(bob)).map((doc) => doc.docId)).toEqual(['memo.md']);
    expect(before?.acl).toEqual(['group:legal']);

    // Public, spelled out in the sidecar: an ACL-only change again.
    await write('plan.md.acl.json', '{"acl": "public"}');
    expect(statuses(await sync())).toEqual({ 'memo.md': 'unchanged', 'plan.md': 'acl' });
    expect((await evident.store.getDocument('plan.md'))?.acl).toEqual([]);
  });

  it('deletes only what came from that folder, and never from a folder that is away', async () => {
    const other = join(dir, 'other');
    await mkdir(other);
    await write('a.md', '# A\n\nFrom docs.\n');
    await write('z.md', '# Z\n\nFrom other.\n', other);
    await sync(docs);
    await sync(other);
    await writeFile(join(dir, 'loose.md'), '# Loose\n\nIngested by hand.\n');
    await evident.ingestor.ingest([join(dir, 'loose.md')]);
    await write('b.md', '# B\n\nFrom docs too.\n');
    await sync(docs);
    await unlink(join(docs, 'a.md'));
    expect(statuses(await sync(docs))).toEqual({ 'a.md': 'deleted', 'b.md': 'unchanged' });
    expect(await docIds()).toEqual(['b.md', 'loose.md', 'z.md']);
    await unlink(join(docs, 'b.md'));
    await syncSource(folder(docs), syncDepsOf(evident), { allowMassDelete: true });
    expect(await docIds()).toEqual(['loose.md', 'z.md']);

    await rm(other, { recursive: true });
    await expect(sync(other)).rejects.toMatchObject({ code: 'source_invalid' });
    expect(await docIds()).toEqual(['loose.md', 'z.md']);
  });

  it('deletes nothing when a folder that held documents lists none (an unmounted disk) or would lose most of them', async () => {
    for (const name of ['a', 'b', 'c', 'd']) await write(`${name}.md`, `# ${name}\n\nText of ${name}.\n`);
    await sync();
    // What an unmounted disk looks like: the mount point is there, empty.
    await rm(docs, { recursive: true });
    await mkdir(docs);
    await expect(sync()).rejects.toMatchObject({ code: 'source_unavailable', message: /lists no documents, but 4/ });
    expect(await docIds()).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
    await write('a.md', '# a\n\nText of a.\n');
    await expect(sync()).rejects.toMatchObject({ code: 'source_unavailable', message: /delete 3 of the 4/ });
    expect(await docIds()).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
    // A dry run still shows the plan; --allow-mass-delete applies it.
    expect((await sync(docs, true)).plan.filter((step) => step.action === 'delete')).toHaveLength(3);
    await syncSource(folder(docs), syncDepsOf(evident), { allowMassDelete: true });
    expect(await docIds()).toEqual(['a.md']);
  });

  it('keeps the stored version of a file that cannot be read now (a bad sidecar), neither updated nor deleted', async () => {
    await write('a.md', '# A\n\nAlpha.\n');
    await sync();
    await write('a.md', '# A\n\nAlpha, changed.\n');
    await write('a.md.acl.json', '{"acl": ');
    const report = await sync();
    expect(report.outcomes).toEqual([
      {
        docId: 'a.md',
        status: 'failed',
        error: { code: 'acl_invalid', message: expect.stringContaining('a.md.acl.json is not valid JSON') },
      },
    ]);
    expect((await evident.store.getChunks(['a.md#0'], LOCAL_OPERATOR))[0]?.text).toContain('Alpha.');
  });

  it('a file another process keeps appending to is stored as a complete prefix or fails with file_changed, never half-read', async () => {
    const path = join(docs, 'growing.log');
    await writeFile(path, Array.from({ length: 20_000 }, (_, i) => `start line ${i} of the log\n`).join(''));
    const writer = spawn(process.execPath, [
      '-e',
      `const fs = require('node:fs'); const pause = new Int32Array(new SharedArrayBuffer(4)); let i = 0;
       for (;;) { fs.appendFileSync(${JSON.stringify(path)}, ('appended line ' + i++ + ' of the log\\n').repeat(160)); Atomics.wait(pause, 0, 0, 2); }`,
    ]);
    const seen: string[] = [];
    try {
      for (let round = 0; round < 4; round += 1) {
        const report = await sync();
        seen.push(...report.outcomes.map((o) => (o.status === 'failed' ? `failed:${o.error?.code}` : o.status)));
      }
    } finally {
      writer.kill('SIGKILL');
    }
    for (const status of seen) expect(['added', 'updated', 'failed:file_changed']).toContain(status);
    // Once the writer stops, the next sync stores the whole file.
    const final = await sync();
    expect(final.failed).toBe(0);
    const stored = await evident.store.getDocument('growing.log');
    const { size } = await import('node:fs/promises').then((fs) => fs.stat(path));
    expect(stored?.bytes).toBe(size);
  });
});
