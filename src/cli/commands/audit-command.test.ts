import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionSha256 } from '../../audit/question-fields.ts';
import { runCli } from '../../testing/run-cli.ts';
import type { auditPageResponseJson } from '../../server/openapi/paths/audit-paths.ts';
import type { z } from 'zod';

const corpus = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'samples/corpus');

/** What the audit log's page answers, as a client reads it (the OpenAPI document's schema of it). */
type PageJson = z.infer<typeof auditPageResponseJson>;
type EntryJson = PageJson['entries'][number];

let dir: string;
let db: string;
const cli = (...args: string[]) => runCli(['--db', db, ...args]);
const ok = async (...args: string[]) => {
  const run = await cli(...args);
  expect(run.code, run.stderr).toBe(0);
  return run;
};
const page = async (...args: string[]): Promise<PageJson> =>
  JSON.parse((await ok('audit', ...args, '--json')).stdout) as PageJson;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-audit-cli-'));
  db = join(dir, 'evident.db');
  await ok('ingest', corpus);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('evident audit', () => {
  it('records what the CLI does as the local operator (users, keys, deletions) and as a user (searches, asks, approvals)', async () => {
    await ok('users', 'add', 'bob', '--groups', 'engineering');
    await ok('users', 'add', 'alice', '--groups', 'legal');
    await ok('users', 'add', 'bob', '--groups', 'engineering,ops');
    const key = (await ok('keys', 'create', 'bob')).stdout.trim();
    const keyId = /API key (\S+) for bob/.exec((await cli('keys', 'create', 'bob')).stderr)?.[1];
    expect(keyId).toBeDefined();
    await ok('keys', 'revoke', keyId!);
    // Revoking a key that does not exist changes nothing and records nothing.
    await ok('keys', 'revoke', 'no-such-key');
    await ok('docs', 'rm', 'tickets/support-tickets.md');

    const query = 'treasury equity position stablecoin settlement wallet';
    await ok('search', query, '--as', 'bob');
    const asked = JSON.parse(
      (await ok('ask', 'What is the termination fee of CT-2024-0193?', '--as', 'alice', '--json')).stdout,
    ) as { run_id: string; thread_id: string };
    const remember = JSON.parse(
      (await ok('ask', 'Remember that I prefer answers in bullet points', '--as', 'alice', '--json')).stdout,
    ) as { thread_id: string };
    await cli('approve', remember.thread_id, '--reject', '--as', 'alice');

    const entries = (await page('--limit', '200')).entries.reverse();
    expect(entries.map((e) => [e.actor, e.action, e.surface])).toEqual([
      ['evident:local', 'user.add', 'cli'],
      ['evident:local', 'user.add', 'cli'],
      ['evident:local', 'user.update', 'cli'],
      ['evident:local', 'key.create', 'cli'],
      ['evident:local', 'key.create', 'cli'],
      ['evident:local', 'key.revoke', 'cli'],
      ['evident:local', 'document.delete', 'cli'],
      ['bob', 'search', 'cli'],
      ['alice', 'ask', 'cli'],
      ['alice', 'ask', 'cli'],
      ['alice', 'approval', 'cli'],
    ]);
    expect(entries[5]!.target).toBe(keyId);
    expect(entries[6]!.target).toBe('tickets/support-tickets.md');
    expect(entries[7]).toMatchObject({ question_sha256: questionSha256(query), withheld: 1, returned_doc_ids: [] });
    expect(entries[8]).toMatchObject({ run_id: asked.run_id, thread_id: asked.thread_id, outcome: 'answered' });
    expect(entries[8]!.cited_doc_ids).toContain('contracts/ct-2024-0193.md');
    expect(entries[9]).toMatchObject({ thread_id: remember.thread_id, outcome: 'interrupted' });
    expect(entries[10]).toMatchObject({ decision: 'reject', thread_id: remember.thread_id });
    expect(entries[10]!.target).toMatch(/^save_memory /);
    expect(JSON.stringify(entries)).not.toContain(key);
  });

  it('prints a table by default, filters like the route, and pages with the cursor it prints', async () => {
    const table = await ok('audit', '--action', 'search');
    expect(table.stdout).toMatch(/^id\s+at\s+actor\s+action\s+via\s+what\s+returned\s+cited\s+withheld\n/);
    expect(table.stdout).toMatch(/\bbob\s+search\s+cli\s+sha256:[0-9a-f]{12}\s+\(none\)\s+-\s+1\n/);
    expect(table.stdout.trim().split('\n')).toHaveLength(3);

    const first = await cli('audit', '--limit', '4');
    const cursor = /--cursor (\d+)/.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const all = (await page('--limit', '200')).entries;
    const next = await page('--limit', '4', '--cursor', cursor!);
    expect(next.entries).toEqual(all.slice(4, 8));

    expect((await page('--actor', 'evident:local', '--action', 'key.revoke')).entries).toHaveLength(1);
    expect((await page('--since', '2999-01-01')).entries).toEqual([]);
    expect((await page('--action', 'ask', '--actor', 'alice')).entries).toHaveLength(2);
    expect((await ok('audit', '--actor', 'nobody')).stdout).toBe('No audit entries match.\n');
  });

  it('refuses a bad filter before opening the store, naming it', async () => {
    for (const [args, field] of [
      [['--action', 'drop'], 'action'],
      [['--limit', '0'], 'limit'],
      [['--since', 'last tuesday'], 'since'],
      [['--cursor', 'x'], 'cursor'],
    ] as const) {
      const run = await cli('audit', ...args);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(field);
    }
  });
});

describe('evident audit verify', () => {
  it('finds the log intact, then the entry a connection that dropped the triggers changed, and one it removed', async () => {
    await ok('search', 'expense report');
    await ok('search', 'webhook retries');
    await ok('search', 'termination fee');
    const intact = JSON.parse((await ok('audit', 'verify', '--json')).stdout) as {
      entries: number;
      head: string;
      broken?: unknown;
    };
    expect(intact.broken).toBeUndefined();
    expect(intact.head).toMatch(/^[0-9a-f]{64}$/);
    const ids = (await page('--action', 'search', '--limit', '3')).entries.map((entry: EntryJson) => entry.id);
    const [last, middle, first] = ids as [number, number, number];

    const { default: Database } = await import('better-sqlite3');
    const raw = new Database(db);
    raw.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;');
    // Removed in place: the entry after it no longer follows.
    raw.prepare('DELETE FROM audit_log WHERE id = ?').run(middle);
    const removed = await cli('audit', 'verify');
    expect(removed.code).toBe(1);
    expect(removed.stdout).toContain(`audit log broken at entry ${last}: its chain value does not follow`);
    // Changed in place: the entry itself no longer follows.
    raw.prepare("UPDATE audit_log SET outcome = 'nothing happened' WHERE id = ?").run(first);
    raw.close();
    const changed = await cli('audit', 'verify');
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain(`audit log broken at entry ${first}:`);
  });
});
