import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import type { IngestOutcome } from './ingest-progress.ts';

let dir: string;
let docs: string;
let evident: Evident;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-acl-'));
  docs = join(dir, 'docs');
  await mkdir(docs);
  evident = await createEvident(
    loadConfig({ flags: { db: join(dir, 'store.db') }, env: { EVIDENT_MAX_SIDECAR_BYTES: '1024' }, cwd: dir }),
  );
});

afterEach(async () => {
  await evident.close();
  await rm(dir, { recursive: true, force: true });
});

const write = (name: string, text: string) => writeFile(join(docs, name), text);
const outcomes = async (options = {}) => {
  const summary = await evident.ingestor.ingest([docs], options);
  return Object.fromEntries(summary.outcomes.map((outcome) => [outcome.docId, outcome])) as Record<
    string,
    IngestOutcome
  >;
};
const stored = (docId: string) => evident.store.getDocument(docId);

describe('an ACL sidecar that is there but cannot be read fails its file', () => {
  it.each([
    [
      'a directory',
      (path: string) => mkdir(path),
      /a\.md\.acl\.json exists but is not a regular file, so the file's ACL is unknown\./,
    ],
    [
      'a link to nothing',
      (path: string) => symlink(join(dir, 'gone.json'), path),
      /a\.md\.acl\.json exists but is a link to a file that does not exist/,
    ],
    [
      'a FIFO (which must not hang the batch)',
      async (path: string) => execFileSync('mkfifo', [path]),
      /a\.md\.acl\.json exists but is not a regular file/,
    ],
  ])('%s', async (_name, make, message) => {
    await write('a.md', '# A\n\nAlpha text.\n');
    await write('b.md', '# B\n\nBeta text.\n');
    await make(join(docs, 'a.md.acl.json'));
    const result = await outcomes();
    expect(result['a.md']).toMatchObject({
      status: 'failed',
      error: { code: 'acl_unreadable', message: expect.stringMatching(message) },
    });
    expect(result['a.md']?.error?.message).not.toContain(dir); // the sidecar is named by doc_id, not by server path
    expect(result['b.md']?.status).toBe('added');
    expect(await stored('a.md')).toBeUndefined();
  });

  it('keeps the restricted version stored when the sidecar becomes unreadable, changed content or not', async () => {
    await write('a.md', '# A\n\nAlpha text.\n');
    await write('a.md.acl.json', '{"acl": ["group:legal"]}');
    expect((await outcomes())['a.md']?.status).toBe('added');
    const before = await stored('a.md');
    expect(before?.acl).toEqual(['group:legal']);

    await rm(join(docs, 'a.md.acl.json'));
    await mkdir(join(docs, 'a.md.acl.json'));
    expect((await outcomes())['a.md']?.error?.code).toBe('acl_unreadable');
    await write('a.md', '# A\n\nAlpha text, second version.\n');
    expect((await outcomes({ force: true }))['a.md']?.error?.code).toBe('acl_unreadable');
    expect(await stored('a.md')).toEqual(before);
  });

  it('refuses a sidecar over ingest.maxSidecarBytes, and an empty one; "public" is spelled out', async () => {
    await write('big.md', '# Big\n\nText.\n');
    await write('big.md.acl.json', JSON.stringify({ acl: Array.from({ length: 100 }, (_, i) => `user:u${i}`) }));
    await write('empty.md', '---\nacl: [group:legal]\n---\n# Empty\n\nText.\n');
    await write('empty.md.acl.json', '{"acl": []}');
    await write('open.md', '---\nacl: [group:legal]\n---\n# Open\n\nText.\n');
    await write('open.md.acl.json', '{"acl": "public"}');
    const result = await outcomes();
    expect(result['big.md']?.error).toMatchObject({
      code: 'acl_invalid',
      message: expect.stringMatching(
        /^big\.md\.acl\.json is 1\.\d KiB, over the ingest\.maxSidecarBytes limit of 1\.0 KiB\./,
      ),
    });
    expect(result['empty.md']?.error).toMatchObject({
      code: 'acl_empty',
      message: expect.stringMatching(/^The ACL in empty\.md\.acl\.json is empty/),
    });
    expect(result['open.md']?.status).toBe('added');
    expect((await stored('open.md'))?.acl).toEqual([]);
  });
});

describe('a sidecar named in another case', () => {
  it('fails its file instead of ingesting it as if it had no sidecar, in a folder and given directly; --acl still wins', async () => {
    await write('a.md', '# A\n\nAlpha text.\n');
    await write('a.md.ACL.json', '{"acl": ["group:legal"]}');
    await write('b.md', '# B\n\nBeta text.\n');
    const summary = await evident.ingestor.ingest([docs]);
    expect(summary.outcomes.map((o) => [o.docId, o.status])).toEqual([
      ['a.md', 'failed'],
      ['b.md', 'added'],
    ]);
    expect(summary.outcomes[0]?.error).toMatchObject({
      code: 'acl_invalid',
      message:
        'a.md has "a.md.ACL.json" beside it, which Evident does not read as its ACL sidecar: it reads only "a.md.acl.json". Rename the sidecar to a.md.acl.json (lower case), or give --acl.',
    });
    expect((await evident.ingestor.ingest([join(docs, 'a.md')])).outcomes[0]?.error?.code).toBe('acl_invalid');
    expect((await outcomes({ acl: ['group:legal'] }))['a.md']?.status).toBe('added');
  });
});

describe('front matter', () => {
  it.each(['ACL', 'Acl', 'permissions', 'allowed_groups', 'Visible-To'])(
    'fails a file whose front matter says %s:, naming the key Evident reads',
    async (key) => {
      await write('a.md', `---\n${key}: [group:legal]\n---\n# A\n\nAlpha text.\n`);
      const error = (await outcomes())['a.md']?.error;
      expect(error).toMatchObject({ code: 'acl_invalid' });
      expect(error?.message).toContain(
        `The front matter of a.md has the key "${key}", which Evident does not read as an ACL: it reads only "acl".`,
      );
      expect(await stored('a.md')).toBeUndefined();
    },
  );

  it('keeps the restricted version when a re-edit misspells the key', async () => {
    await write('a.md', '---\nacl: [group:legal]\n---\n# A\n\nAlpha text.\n');
    await outcomes();
    const before = await stored('a.md');
    await write('a.md', '---\nACL: [group:legal]\n---\n# A\n\nAlpha text, edited.\n');
    expect((await outcomes())['a.md']?.status).toBe('failed');
    expect(await stored('a.md')).toEqual(before);
  });

  it.each([['acl:'], ['acl: []'], ['acl: ""'], ['acl: " , "']])(
    'refuses an empty ACL (%s) instead of publishing the file',
    async (line) => {
      await write('a.md', `---\ntitle: A\n${line}\n---\n# A\n\nAlpha text.\n`);
      expect((await outcomes())['a.md']?.error).toMatchObject({
        code: 'acl_empty',
        message:
          'The ACL in the front matter of a.md is empty, which would make the documents it covers visible to everyone. Name who may read them (e.g. group:legal,user:bob), or write "public" to make them visible to every user on purpose.',
      });
    },
  );

  it('takes acl: public as public, and refuses public mixed with entries', async () => {
    await write('a.md', '---\nacl: public\n---\n# A\n\nAlpha text.\n');
    await write('b.md', '---\nacl: [public, group:legal]\n---\n# B\n\nBeta text.\n');
    const result = await outcomes();
    expect(result['a.md']?.status).toBe('added');
    expect((await stored('a.md'))?.acl).toEqual([]);
    expect(result['b.md']?.error).toMatchObject({
      code: 'acl_invalid',
      message: expect.stringContaining('combines "public" with other entries'),
    });
  });
});

describe('the batch override', () => {
  it('makes every file public only as [] (what `--acl public` gives), over sidecars and front matter', async () => {
    await write('a.md', '---\nacl: [group:legal]\n---\n# A\n\nAlpha text.\n');
    await write('b.txt', 'Beta text.\n');
    await write('b.txt.acl.json', '{"acl": ["user:bob"]}');
    await outcomes({ acl: [] });
    expect((await stored('a.md'))?.acl).toEqual([]);
    expect((await stored('b.txt'))?.acl).toEqual([]);
  });
});
