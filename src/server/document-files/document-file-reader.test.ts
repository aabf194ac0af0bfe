import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRecord, Principal } from '../../domain/index.ts';
import { DocumentFileUnavailableError } from '../../errors/index.ts';
import { folderKey, folderSourcePrefix } from '../../sources/folder-origin.ts';
import { folderDocumentFileReader } from './document-file-reader.ts';

let base: string;
let root: string;
const SECRET = 'outside the root: never served\n';
const READER: Principal = { id: 'alice', groups: [], roles: ['member'] };
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

const record = (docId: string, text: string, source = docId): DocumentRecord => ({
  docId,
  source,
  title: docId,
  type: 'text',
  contentHash: hashOf(text),
  bytes: text.length,
  acl: [],
  tags: [],
  chunkCount: 1,
  ingestedAt: new Date(0).toISOString(),
});

async function gapOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (!DocumentFileUnavailableError.isInstance(error))
    throw new Error(`expected document_file_unavailable, got ${String(error)}`);
  return error.gap;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'evident-file-reader-'));
  root = join(base, 'docs');
  await mkdir(join(root, 'notes'), { recursive: true });
  await writeFile(join(base, 'secret.txt'), SECRET);
  await writeFile(join(root, 'notes', 'a.txt'), 'note a\n');
  await symlink(join(base, 'secret.txt'), join(root, 'notes', 'link.txt'));
  await symlink(base, join(root, 'up'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('folderDocumentFileReader', () => {
  const reader = () => folderDocumentFileReader([join(base, 'elsewhere'), root], 1024);

  it('reads a document from the root that holds its bytes', async () => {
    expect(Buffer.from(await reader().read(record('notes/a.txt', 'note a\n'), READER)).toString()).toBe('note a\n');
  });

  it('reads nothing outside a root: .. ids, absolute ids, and links that lead out, even when the hash matches', async () => {
    for (const docId of [
      '../secret.txt',
      'notes/../../secret.txt',
      join(base, 'secret.txt'),
      'notes/link.txt',
      'up/secret.txt',
    ]) {
      expect(await gapOf(reader().read(record(docId, SECRET), READER))).toBe('not_kept');
    }
  });

  it('refuses bytes that no longer hash to the indexed version, a source that is no file, and files over the bound', async () => {
    expect(await gapOf(reader().read(record('notes/a.txt', 'note a, as it was indexed\n'), READER))).toBe('changed');
    expect(await gapOf(reader().read(record('notes/a.txt', 'note a\n', 'upload:notes/a.txt'), READER))).toBe(
      'not_kept',
    );
    expect(await gapOf(folderDocumentFileReader([root], 3).read(record('notes/a.txt', 'note a\n'), READER))).toBe(
      'not_kept',
    );
    expect(await gapOf(folderDocumentFileReader([], 1024).read(record('notes/a.txt', 'note a\n'), READER))).toBe(
      'not_kept',
    );
  });

  it('reads a synced document from the root whose key its source names, and from no other root', async () => {
    const synced = (docId: string, text: string, folder: string) =>
      record(docId, text, `${folderSourcePrefix(folderKey(folder))}${docId}`);
    const key = await realpath(root);
    expect(Buffer.from(await reader().read(synced('notes/a.txt', 'note a\n', key), READER)).toString()).toBe(
      'note a\n',
    );
    // The same file under a key of another folder (a sync of elsewhere), or a source naming another doc_id: nothing.
    expect(await gapOf(reader().read(synced('notes/a.txt', 'note a\n', join(key, 'other')), READER))).toBe('not_kept');
    const foreign = record('notes/a.txt', 'note a\n', `${folderSourcePrefix(folderKey(key))}notes/b.txt`);
    expect(await gapOf(reader().read(foreign, READER))).toBe('not_kept');
    // Without its folder among the roots it is not served; with a changed file it is refused as changed.
    expect(
      await gapOf(
        folderDocumentFileReader([join(base, 'elsewhere')], 1024).read(synced('notes/a.txt', 'note a\n', key), READER),
      ),
    ).toBe('not_kept');
    expect(await gapOf(reader().read(synced('notes/a.txt', 'note a, as synced\n', key), READER))).toBe('changed');
    // The sync's own containment rules hold: a link out of the root is not served even under the right key.
    expect(await gapOf(reader().read(synced('notes/link.txt', SECRET, key), READER))).toBe('not_kept');
  });
});
