import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { silentLogger } from '../logging/logger.ts';
import { buildEml } from '../testing/mail-builder.ts';
import { FolderSource } from './folder-source.ts';
import { syncDepsOf } from './open-sources.ts';
import { syncSource, type SyncReport } from './sync-source.ts';

let dir: string;
let docs: string;
let evident: Evident;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-mail-sync-'));
  docs = join(dir, 'docs');
  await mkdir(docs);
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
});

afterEach(async () => {
  await evident.close();
  await rm(dir, { recursive: true, force: true });
});

const sync = () =>
  syncSource(new FolderSource(docs, { limits: evident.config.ingest, logger: silentLogger }), syncDepsOf(evident));
const statuses = (report: SyncReport) => Object.fromEntries(report.outcomes.map((o) => [o.docId, o.status]));
const acls = async () =>
  Object.fromEntries((await evident.store.listDocuments(LOCAL_OPERATOR)).map((doc) => [doc.docId, doc.acl]));

describe('syncing a folder of e-mail', () => {
  it('never plans an attachment on its own: it stays, takes the new ACL and goes with its message', async () => {
    await writeFile(
      join(docs, 'memo.eml'),
      buildEml({
        subject: 'Memo',
        text: 'See the note.',
        attachments: [{ name: 'note.txt', contentType: 'text/plain', bytes: Buffer.from('Heron sightings: 12.') }],
      }),
    );
    await writeFile(join(docs, 'memo.eml.acl.json'), JSON.stringify({ acl: ['group:legal'] }));
    expect(statuses(await sync())).toEqual({ 'memo.eml': 'added' });
    // The attachment is listed by no source, yet a second sync deletes nothing.
    expect(statuses(await sync())).toEqual({ 'memo.eml': 'unchanged' });
    expect(await acls()).toEqual({ 'memo.eml': ['group:legal'], 'memo.eml/note.txt': ['group:legal'] });

    // Only the sidecar changed: the message's ACL is updated in place, and its attachment's with it.
    await writeFile(join(docs, 'memo.eml.acl.json'), JSON.stringify({ acl: ['user:lena'] }));
    expect(statuses(await sync())).toEqual({ 'memo.eml': 'acl' });
    expect(await acls()).toEqual({ 'memo.eml': ['user:lena'], 'memo.eml/note.txt': ['user:lena'] });

    await unlink(join(docs, 'memo.eml'));
    await writeFile(join(docs, 'other.txt'), 'Something else.');
    expect(statuses(await sync())).toMatchObject({ 'memo.eml': 'deleted' });
    expect(Object.keys(await acls())).toEqual(['other.txt']);
  });
});
