import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../store/sqlite/store.ts';
import type { CronCreate } from '../store/store.ts';
import { runCli } from '../testing/run-cli.ts';

let dir: string;
let db: string;
const cli = (...args: string[]) => runCli(['--db', db, ...args]);

const cron = (cronId: string, owner: string): CronCreate => ({
  cronId,
  owner,
  assistantId: 'rag',
  threadId: null,
  schedule: '0 9 * * 1-5',
  timezone: 'Europe/Paris',
  endTime: null,
  enabled: true,
  onRunCompleted: 'keep',
  payload: { input: { question: 'Which contracts renew?' } },
  metadata: {},
  nextRunAt: '2030-01-01T08:00:00.000Z',
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-crons-cli-'));
  db = join(dir, 'store.db');
  const store = await openSqliteStore(db);
  await store.upsertUser({ name: 'alice', groups: ['legal'] });
  await store.upsertUser({ name: 'bob', groups: [] });
  await store.createCron(cron('cron-a', 'alice'), 10);
  await store.createCron(cron('cron-b', 'bob'), 10);
  await store.claimCronTick({
    cronId: 'cron-a',
    expectedNextRunAt: '2030-01-01T08:00:00.000Z',
    tickAt: '2030-01-01T08:00:00.000Z',
    nextRunAt: '2030-01-02T08:00:00.000Z',
    claimedBy: 'test',
    keepTicks: 10,
  });
  await store.settleCronTick('cron-a', '2030-01-01T08:00:00.000Z', {
    status: 'skipped',
    reason: 'owner_not_allowed: only members of legal may run crons',
  });
  await store.close();
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('evident crons', () => {
  it("lists a user's crons with --as, and everyone's for the store's operator", async () => {
    const mine = await cli('crons', 'list', '--as', 'alice', '--json');
    expect(mine.code, mine.stderr).toBe(0);
    expect((JSON.parse(mine.stdout) as { cron_id: string; owner: string }[]).map((c) => c.cron_id)).toEqual(['cron-a']);
    const all = await cli('crons', 'list');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain('cron-a');
    expect(all.stdout).toContain('cron-b');
    expect(all.stdout).toContain('Europe/Paris');
  });

  it('shows a cron’s history to its owner only, skipped ticks with their reason', async () => {
    const history = await cli('crons', 'history', 'cron-a', '--as', 'alice');
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout).toMatch(/2030-01-01T08:00:00.000Z\s+skipped.*owner_not_allowed: only members of legal/);
    const bobs = await cli('crons', 'history', 'cron-a', '--as', 'bob');
    expect(bobs.code).not.toBe(0);
    expect(bobs.stderr).toContain('No cron named "cron-a"');
  });

  it('deletes a cron for its owner, never for another user; the operator deletes any', async () => {
    const refused = await cli('crons', 'delete', 'cron-a', '--as', 'bob');
    expect(refused.code).not.toBe(0);
    const deleted = await cli('crons', 'delete', 'cron-a', '--as', 'alice');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('Deleted cron cron-a');
    const byOperator = await cli('crons', 'delete', 'cron-b');
    expect(byOperator.code, byOperator.stderr).toBe(0);
    const left = await cli('crons', 'list', '--json');
    expect(JSON.parse(left.stdout)).toEqual([]);
    expect((await cli('crons', 'delete', 'cron-b')).code).not.toBe(0);
  });
});
