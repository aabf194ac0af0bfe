import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { runCli } from '../testing/run-cli.ts';

let dir: string;
let db: string;
const cli = (...args: string[]) => runCli(['--db', db, ...args]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-users-active-'));
  db = join(dir, 'store.db');
  expect((await cli('users', 'add', 'alice', '--groups', 'legal')).code).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const keyCheck = async (key: string) => {
  const store = await openSqliteStore(db);
  try {
    return await store.principalForApiKey(key);
  } finally {
    await store.close();
  }
};

it('deactivates a user (their key stops, --as refuses them, the list says so) and activates them again', async () => {
  const created = await cli('keys', 'create', 'alice');
  expect(created.code, created.stderr).toBe(0);
  const key = created.stdout.trim();
  expect((await keyCheck(key))?.id).toBe('alice');

  const off = await cli('users', 'deactivate', 'alice');
  expect(off.code, off.stderr).toBe(0);
  expect(off.stdout).toBe('user alice: inactive\n');
  expect(await keyCheck(key)).toBeUndefined();
  expect(JSON.parse((await cli('users', 'list', '--json')).stdout)).toEqual([
    expect.objectContaining({ name: 'alice', active: false }),
  ]);
  expect((await cli('users', 'list')).stdout).toMatch(/alice\s+legal\s+member\s+no/);
  const asAlice = await cli('search', 'licence', '--as', 'alice');
  expect(asAlice.code).not.toBe(0);
  expect(asAlice.stderr).toMatch(/alice is deactivated/);
  const audit = JSON.parse((await cli('audit', '--action', 'user.deactivate', '--json')).stdout) as unknown;
  expect(JSON.stringify(audit)).toContain('"target":"alice"');

  expect((await cli('users', 'activate', 'alice')).stdout).toBe('user alice: active\n');
  expect((await keyCheck(key))?.groups).toEqual(['legal']);
  const missing = await cli('users', 'deactivate', 'nobody');
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toMatch(/No user named "nobody"/);
});
