import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';

const bin = resolve(import.meta.dirname, '../../bin/evident.js');
const EMPTY =
  'error: The ACL in --acl is empty, which would make the documents it covers visible to everyone. ' +
  'Name who may read them (e.g. group:legal,user:bob), or write "public" to make them visible to every user on purpose.\n';

let dir: string;
let docs: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-acl-flag-'));
  docs = join(dir, 'docs');
  await mkdir(docs);
  await writeFile(join(docs, 'minutes.md'), '---\nacl: [group:legal]\n---\n# Board minutes\n\nBudget line BL-4471.\n');
  await writeFile(join(docs, 'notes.txt'), 'Notes for everyone.\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const listed = async (db: string) =>
  (
    JSON.parse((await runCli(['--db', db, 'docs', 'list', '--json'])).stdout) as { doc_id: string; acl: string[] }[]
  ).map((d) => [d.doc_id, d.acl]);

describe('evident ingest --acl', () => {
  it('refuses an empty override from an unset shell variable, storing nothing', async () => {
    const db = join(dir, 'unset.db');
    // The exact accident: a real shell expands an unset variable to "" and passes it as the value.
    const run = await promisify(execFile)(
      'bash',
      ['-c', 'unset ACL; node "$BIN" --db "$DB" ingest --acl "$ACL" "$DOCS"'],
      {
        env: { ...process.env, BIN: bin, DB: db, DOCS: docs },
      },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: EMPTY });
    expect(await listed(db)).toEqual([]);
  });

  it.each([[','], [' , ,'], ['   ']])('refuses %j the same way', async (value) => {
    const db = join(dir, 'commas.db');
    expect(await runCli(['--db', db, 'ingest', '--acl', value, docs])).toEqual({ code: 1, stdout: '', stderr: EMPTY });
    expect(await listed(db)).toEqual([]);
  });

  it('makes every file public with --acl public, over the front matter', async () => {
    const db = join(dir, 'public.db');
    expect((await runCli(['--db', db, 'ingest', '--acl', 'public', docs])).code).toBe(0);
    expect(await listed(db)).toEqual([
      ['minutes.md', []],
      ['notes.txt', []],
    ]);
  });

  it('refuses public mixed with entries, and keeps the front matter without --acl', async () => {
    const db = join(dir, 'mixed.db');
    const mixed = await runCli(['--db', db, 'ingest', '--acl', 'public,group:legal', docs]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(/^error: The ACL in --acl combines "public" with other entries\./);
    expect((await runCli(['--db', db, 'ingest', docs])).code).toBe(0);
    expect(await listed(db)).toEqual([
      ['minutes.md', ['group:legal']],
      ['notes.txt', []],
    ]);
  });
});
