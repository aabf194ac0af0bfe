import { mkdir, mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiTestServer, type ApiTestServer } from '../testing/api-test-server.ts';
import { runCli } from '../testing/run-cli.ts';

interface ResultJson {
  doc_id: string;
  score: number;
  channels: Record<string, { rank: number; score?: number }>;
}

/**
 * The BM25 side channel: a public document's raw score for a term moves when a restricted document containing the
 * term is added (IDF and average length are index-wide). What a non-admin sees must not move with it.
 */
describe('search scores a non-admin sees do not depend on documents they cannot read', () => {
  let api: ApiTestServer;
  let folder: string;
  const cli = async (...args: string[]) => {
    const run = await runCli(['--db', api.evident.store.location, 'search', 'zephyrine', ...args]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    return run.stdout;
  };
  const http = async (key: string) => {
    const response = await api.request('POST', '/v1/search', { key, json: { query: 'zephyrine' } });
    expect(response.status).toBe(200);
    return (response.json as { results: ResultJson[] }).results;
  };
  /** Everything each surface shows, for a member (alice, and an ad-hoc group member) and for an admin. */
  const observe = async () => ({
    member: {
      cliJson: JSON.parse(await cli('--json', '--groups', 'staff')) as ResultJson[],
      cliExplain: (await cli('--explain', '--as', 'alice')).split('\ntimings:')[0],
      http: await http(api.keys.alice),
    },
    admin: {
      cliJson: JSON.parse(await cli('--json')) as ResultJson[],
      cliExplain: await cli('--explain'),
      http: await http(api.keys.admin),
    },
  });

  beforeAll(async () => {
    api = await startApiTestServer({ corpus: false });
    folder = await mkdtemp(join(tmpdir(), 'evident-scores-'));
    await writeFile(join(folder, 'valves.md'), '# Valves\n\nThe zephyrine valve passed its inspection in March.\n');
    await writeFile(join(folder, 'pumps.md'), '# Pumps\n\nThe pumps were serviced in April and May, on schedule.\n');
    await writeFile(
      join(folder, 'filters.md'),
      '# Filters\n\nFilters are replaced every quarter by the facilities team.\n',
    );
    expect(await api.evident.ingestor.ingest([folder])).toMatchObject({ added: 3, failed: 0 });
  });
  afterAll(async () => {
    await api?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('shows ranks to non-admins, unchanged when a restricted document with the term arrives; admins keep raw scores', async () => {
    const before = await observe();
    expect(before.member.http.map((result) => result.doc_id)).toEqual(['valves.md']);

    const board = join(folder, 'board');
    await mkdir(board);
    await writeFile(
      join(board, 'merger.md'),
      '# Merger\n\nProject zephyrine zephyrine: the board plans to acquire a competitor.\n',
    );
    await writeFile(join(board, 'merger.md.acl.json'), JSON.stringify({ acl: ['group:board'] }));
    expect(await api.evident.ingestor.ingest([folder])).toMatchObject({ added: 1, failed: 0 });
    const after = await observe();

    // The side channel is real: the admin's raw BM25 score of the public document moved.
    const valves = (results: ResultJson[]) => results.find((result) => result.doc_id === 'valves.md');
    expect(valves(after.admin.http)?.channels.bm25?.score).not.toBe(valves(before.admin.http)?.channels.bm25?.score);
    expect(valves(after.admin.cliJson)?.channels.bm25?.score).not.toBe(
      valves(before.admin.cliJson)?.channels.bm25?.score,
    );
    expect(after.admin.http.map((result) => result.doc_id)).toContain('board/merger.md');
    expect(after.admin.cliExplain).toContain('bm25 score');

    // A member sees exactly the same thing before and after, on every surface, and no raw channel score.
    expect(after.member).toEqual(before.member);
    for (const result of [...after.member.http, ...after.member.cliJson]) {
      expect(result.channels.bm25).toEqual({ rank: expect.any(Number) });
    }
    expect(after.member.cliExplain).not.toContain('bm25 score');
    expect(after.member.cliExplain).toContain('bm25 rank');
  });
});
