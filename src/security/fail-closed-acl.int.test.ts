import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { LOCAL_OPERATOR } from '../domain/index.ts';
import { createEvident, type Evident } from '../evident.ts';
import { TEST_ADMIN_KEY, startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { runCli } from '../testing/run-cli.ts';

/**
 * ACLs that are broken, empty by accident, misspelt or unreadable, each on a file with a word of its own: whatever
 * `evident ingest` and the upload route make of them, the file must never become readable by a user with no group
 * (ARCHITECTURE §2: fail closed). A file either fails or is stored restricted; a stored version is never made public.
 */
interface Variant {
  name: string;
  /** Files relative to the corpus folder; the one named `file` carries the canary. */
  files: Record<string, string | { dir: true }>;
  file: string;
}

const word = (i: number) => `zqacl${i}canary`;
const md = (front: string, i: number) => `${front}# Memo ${i}\n\nThe harbour code ${word(i)} is for the board only.\n`;

const VARIANTS: Variant[] = [
  {
    name: 'an empty list (acl: [])',
    file: 'a/empty-list.md',
    files: { 'a/empty-list.md': md('---\nacl: []\n---\n', 0) },
  },
  { name: 'an empty value (acl:)', file: 'a/empty-value.md', files: { 'a/empty-value.md': md('---\nacl:\n---\n', 1) } },
  {
    name: 'a misspelt key (ACL:)',
    file: 'a/upper-key.md',
    files: { 'a/upper-key.md': md('---\nACL: [group:legal]\n---\n', 2) },
  },
  {
    name: 'another key (permissions:)',
    file: 'a/permissions.md',
    files: { 'a/permissions.md': md('---\npermissions: [group:legal]\n---\n', 3) },
  },
  {
    name: 'broken YAML (acl: [group:legal)',
    file: 'a/broken-yaml.md',
    files: { 'a/broken-yaml.md': md('---\nacl: [group:legal\n---\n', 4) },
  },
  {
    name: 'an entry with no name (group:)',
    file: 'a/no-name.md',
    files: { 'a/no-name.md': md('---\nacl: [group:]\n---\n', 5) },
  },
  {
    name: 'an entry of no kind (everyone)',
    file: 'a/everyone.md',
    files: { 'a/everyone.md': md('---\nacl: [everyone]\n---\n', 6) },
  },
  {
    name: 'CRLF line endings and a BOM around a valid ACL',
    file: 'a/crlf.md',
    files: {
      'a/crlf.md': `\ufeff${md('---\r\nacl: [group:legal]\r\n---\r\n', 7).replaceAll('\n', '\r\n').replaceAll('\r\r', '\r')}`,
    },
  },
  {
    name: 'a sidecar with an empty list',
    file: 'b/empty-sidecar.txt',
    files: { 'b/empty-sidecar.txt': `The harbour code ${word(8)}.`, 'b/empty-sidecar.txt.acl.json': '{"acl": []}' },
  },
  {
    name: 'a sidecar with a misspelt key',
    file: 'b/upper-sidecar.txt',
    files: {
      'b/upper-sidecar.txt': `The harbour code ${word(9)}.`,
      'b/upper-sidecar.txt.acl.json': '{"ACL": ["group:legal"]}',
    },
  },
  {
    name: 'a sidecar that is not JSON',
    file: 'b/bad-json.txt',
    files: { 'b/bad-json.txt': `The harbour code ${word(10)}.`, 'b/bad-json.txt.acl.json': '{"acl": ["group:legal"' },
  },
  {
    name: 'a sidecar with a string, not a list',
    file: 'b/string-sidecar.txt',
    files: {
      'b/string-sidecar.txt': `The harbour code ${word(11)}.`,
      'b/string-sidecar.txt.acl.json': '{"acl": "group:legal"}',
    },
  },
  {
    name: 'a sidecar that cannot be read (a folder)',
    file: 'b/folder-sidecar.txt',
    files: { 'b/folder-sidecar.txt': `The harbour code ${word(12)}.`, 'b/folder-sidecar.txt.acl.json': { dir: true } },
  },
  {
    name: 'a sidecar that says public beside a restricted front matter',
    file: 'b/public-sidecar.md',
    files: {
      'b/public-sidecar.md': md('---\nacl: [group:legal]\n---\n', 13),
      'b/public-sidecar.md.acl.json': '{"acl": ["public", "group:legal"]}',
    },
  },
];

/** The control: a file that says public, whose word a user with no group does find (so the checks above can fail). */
const PUBLIC: Variant = {
  name: 'public',
  file: 'c/public.md',
  files: { 'c/public.md': md('---\nacl: public\n---\n', 99) },
};

const root = mkdtempSync(join(tmpdir(), 'evident-acl-attack-'));
const corpus = join(root, 'corpus');
const db = join(root, 'store.db');
let evident: Evident;
let ingestOutput: string;

beforeAll(async () => {
  for (const variant of [...VARIANTS, PUBLIC]) {
    for (const [path, content] of Object.entries(variant.files)) {
      const full = join(corpus, path);
      mkdirSync(dirname(full), { recursive: true });
      if (typeof content === 'string') writeFileSync(full, content);
      else mkdirSync(full, { recursive: true });
    }
  }
  const run = await runCli(['--db', db, 'ingest', corpus, '--json']);
  ingestOutput = run.stdout + run.stderr;
  evident = await createEvident(loadConfig({ flags: { db } }));
  await evident.store.upsertUser({ name: 'nobody', groups: [] });
});
afterAll(async () => {
  await evident?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('fail closed: an ACL that cannot be read never makes a file public', () => {
  it('ingested the corpus (the CLI ran and reported every file)', () => {
    for (const variant of VARIANTS) expect(ingestOutput, variant.name).toContain(variant.file);
  });

  it('finds the word of a file that says public (the control)', async () => {
    const found = await evident.search.search(word(99), await evident.principalFor('nobody'));
    expect(found.results.map((result) => result.chunk.docId)).toEqual([PUBLIC.file]);
  });

  for (const variant of VARIANTS) {
    it(`${variant.name}: the file failed or is stored restricted, and a user with no group finds nothing of it`, async () => {
      const stored = (await evident.store.listDocuments(LOCAL_OPERATOR)).find((doc) => doc.docId === variant.file);
      if (stored) expect(stored.acl, `${variant.file} stored as public`).not.toEqual([]);
      const principal = await evident.principalFor('nobody');
      const found = await evident.search.search(word(VARIANTS.indexOf(variant)), principal);
      expect(found.results.map((result) => result.chunk.docId)).toEqual([]);
    });
  }
});

describe('fail closed on upload: an acl field never widens what the file itself says', () => {
  let api: ApiTestServer;
  beforeAll(async () => {
    api = await startApiTestServer({ corpus: false });
  });
  afterAll(async () => api?.close());

  const upload = (acl: string | undefined, i: number) => {
    const form = new FormData();
    form.append(
      'files',
      new File([md('---\nacl: [group:legal]\n---\n', 100 + i)], `memo-${i}.md`, { type: 'text/markdown' }),
    );
    form.append('folder', 'uploads');
    if (acl !== undefined) form.append('acl', acl);
    return api.request('POST', '/v1/documents', { key: TEST_ADMIN_KEY, body: form });
  };

  for (const [i, acl] of [' ', ',', ',,', 'group:', 'public,group:legal'].entries()) {
    it(`acl=${JSON.stringify(acl)} is refused, or leaves the file restricted`, async () => {
      const response = await upload(acl, i);
      const stored = (await api.evident.store.listDocuments(LOCAL_OPERATOR)).find(
        (doc) => doc.docId === `uploads/memo-${i}.md`,
      );
      if (stored) expect(stored.acl, response.text).not.toEqual([]);
      else expect(response.status, response.text).toBeGreaterThanOrEqual(400);
      const bob = await api.evident.principalFor('bob');
      expect((await api.evident.search.search(word(100 + i), bob)).results).toEqual([]);
    });
  }
});
