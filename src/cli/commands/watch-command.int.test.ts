import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { LOCAL_OPERATOR } from '../../domain/index.ts';
import { createEvident } from '../../evident.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
let dir: string;
let docs: string;
let db: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-watch-'));
  docs = join(dir, 'docs');
  db = join(dir, 'store.db');
  await mkdir(join(docs, 'sub'), { recursive: true });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `evident watch` as a child process (the package's bin), with its stdout collected. */
function startWatch() {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [join(REPO, 'bin/evident.js'), '--db', db, 'watch', docs, '--debounce-ms', '150', '--interval', '3600'],
    {
      cwd: dir,
      env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Waits until stdout (from `from` on) matches, or fails naming what it saw. */
  const waitFor = async (pattern: RegExp, from = 0, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!pattern.test(stdout.slice(from))) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`no ${pattern} in stdout:\n${stdout}\nstderr:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, exited, waitFor, stdout: () => stdout, stderr: () => stderr };
}

describe('evident watch <dir> (a real child process)', () => {
  it('follows creates, edits, renames, ACL changes and deletes; a restart catches what it missed; SIGINT ends it cleanly', async () => {
    await writeFile(join(docs, 'first.md'), '# First\n\nThere before the watch.\n');
    const watch = startWatch();
    await watch.waitFor(/added\s+first\.md[\s\S]*watching .*docs \(file events\)/);

    let mark = watch.stdout().length;
    await writeFile(join(docs, 'sub', 'a.md'), '# A\n\nAlpha orchid text.\n');
    await watch.waitFor(/added\s+sub\/a\.md/, mark);

    mark = watch.stdout().length;
    await writeFile(join(docs, 'sub', 'a.md'), '# A\n\nAlpha orchid text, edited.\n');
    await watch.waitFor(/updated\s+sub\/a\.md/, mark);

    mark = watch.stdout().length;
    await rename(join(docs, 'sub', 'a.md'), join(docs, 'sub', 'b.md'));
    await watch.waitFor(/(deleted\s+sub\/a\.md[\s\S]*added\s+sub\/b\.md)/, mark);

    mark = watch.stdout().length;
    await writeFile(join(docs, 'sub', 'b.md.acl.json'), '{"acl": ["group:legal"]}');
    await watch.waitFor(/acl updated sub\/b\.md/, mark);

    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(watch.stdout()).toMatch(/stopped \(SIGINT\)\n$/);

    // Changes while nothing watches: the next start's full sync applies them.
    await unlink(join(docs, 'first.md'));
    await writeFile(join(docs, 'late.md'), '# Late\n\nWritten while the watcher was down.\n');
    const again = startWatch();
    await again.waitFor(/deleted\s+first\.md[\s\S]*added\s+late\.md[\s\S]*watching/);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);

    const evident = await createEvident(loadConfig({ flags: { db }, env: {}, cwd: dir }));
    try {
      const stored = await evident.store.listDocuments(LOCAL_OPERATOR);
      expect(stored.map((doc) => [doc.docId, doc.acl])).toEqual([
        ['late.md', []],
        ['sub/b.md', ['group:legal']],
      ]);
    } finally {
      await evident.close();
    }
  }, 120_000);

  it('evident serve --watch <dir> keeps a folder in sync beside the server', async () => {
    const served = join(dir, 'served');
    await mkdir(served);
    await writeFile(join(served, 'one.md'), '# One\n\nServed from the start.\n');
    const child = spawn(
      process.execPath,
      [join(REPO, 'bin/evident.js'), '--db', join(dir, 'served.db'), 'serve', '--port', '0', '--watch', served],
      {
        cwd: dir,
        env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', EVIDENT_ADMIN_KEY: 'test-admin-key-0123456789abcdef' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const until = async (test: () => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!test()) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`stdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    try {
      await until(
        () =>
          /Evident listening on http:\/\/127\.0\.0\.1:\d+/.test(stdout) &&
          /added\s+one\.md[\s\S]*watching .*served \(file events\)/.test(stderr),
      );
      const mark = stderr.length;
      await writeFile(join(served, 'two.md'), '# Two\n\nWritten while serving.\n');
      await until(() => /watch:\s+added\s+two\.md/.test(stderr.slice(mark)));
      const url = /Evident listening on (\S+)/.exec(stdout)?.[1];
      const response = await fetch(`${url}/v1/documents`, {
        headers: { authorization: 'Bearer test-admin-key-0123456789abcdef' },
      });
      expect(response.status).toBe(200);
      expect(JSON.stringify(await response.json())).toContain('two.md');
      // The watched folder is a document root: a synced file's original is served.
      const original = await fetch(`${url}/v1/documents/two.md/file`, {
        headers: { authorization: 'Bearer test-admin-key-0123456789abcdef' },
      });
      expect(original.status).toBe(200);
      expect(await original.text()).toBe('# Two\n\nWritten while serving.\n');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
