import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Starts `evident serve` as a real process and resolves with what it printed once it listens. */
function serve(
  db: string,
): Promise<{ child: ChildProcessWithoutNullStreams; url: string; adminKey: string | undefined; stderr: () => string }> {
  const env = { ...process.env };
  delete env.EVIDENT_ADMIN_KEY;
  const child = spawn(
    process.execPath,
    [join(root, 'bin/evident.js'), '--db', db, 'serve', '--port', '0', '--sample'],
    { env, cwd: root },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  return new Promise((resolvePromise, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = out.match(/listening on (http:\/\/\S+)/)?.[1];
      if (url) resolvePromise({ child, url, adminKey: out.match(/Admin API key[^:]*: (\S+)/)?.[1], stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

const stop = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolvePromise) => {
    child.once('exit', (code) => resolvePromise(code));
    child.kill('SIGTERM');
  });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-serve-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evident serve --sample', () => {
  it('ingests the sample corpus into an empty store, prints the URL and a first admin key, and stops cleanly on SIGTERM', async () => {
    const db = join(dir, 'store.db');
    const first = await serve(db);
    try {
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.stderr()).toMatch(/sample corpus: \d+ documents ingested/);
      expect(first.adminKey).toMatch(/^evk_/);
      const headers = { authorization: `Bearer ${first.adminKey}` };
      const users = (await (await fetch(`${first.url}/v1/users`, { headers })).json()) as { users: { name: string }[] };
      expect(users.users.map((u) => u.name)).toContain('alice');
      const keyed = (await (await fetch(`${first.url}/v1/users/alice/keys`, { method: 'POST', headers })).json()) as {
        key: string;
      };
      const found = await fetch(`${first.url}/v1/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyed.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'CT-2024-0193 platform fee' }),
      });
      expect(JSON.stringify(await found.json())).toContain('contracts/ct-2024-0193.md');
      // The sample folder is a document root: a cited sample file opens, with its exact bytes, for a reader only.
      const original = await fetch(`${first.url}/v1/documents/contracts/ct-2024-0193.md/file`, {
        headers: { authorization: `Bearer ${keyed.key}` },
      });
      expect(original.status).toBe(200);
      expect(
        Buffer.from(await original.arrayBuffer()).equals(
          await readFile(join(root, 'samples/corpus/contracts/ct-2024-0193.md')),
        ),
      ).toBe(true);
    } finally {
      expect(await stop(first.child), first.stderr()).toBe(0);
    }
    expect(first.stderr()).toContain('SIGTERM: shutting down');

    const second = await serve(db);
    try {
      expect(second.stderr()).not.toContain('sample corpus:');
      expect(second.adminKey).toBeUndefined();
      // A store that already holds the sample still serves its files from the sample folder.
      const original = await fetch(`${second.url}/v1/documents/contracts/ct-2024-0193.md/file`, {
        headers: { authorization: `Bearer ${first.adminKey}` },
      });
      expect(original.status).toBe(200);
    } finally {
      expect(await stop(second.child), second.stderr()).toBe(0);
    }
  });
});
