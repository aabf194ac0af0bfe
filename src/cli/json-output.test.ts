import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERBATIM_KEYS } from '../format/snake-case-keys.ts';
import { runCli } from '../testing/run-cli.ts';

const corpus = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'samples/corpus');

let dir: string;
const cli = (...args: string[]) => runCli(['--db', join(dir, 'store.db'), ...args]);
const cliJson = async (...args: string[]): Promise<unknown> => {
  const run = await cli(...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
};

/** Every key of Evident's own objects in the value, with its path (values under the verbatim keys are data). */
function keysOf(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => keysOf(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => [
    `${path}.${key}`,
    ...((VERBATIM_KEYS as readonly string[]).includes(key) ? [] : keysOf(child, `${path}.${key}`)),
  ]);
}
const notSnakeCase = (value: unknown) =>
  keysOf(value).filter((path) => !/^[a-z0-9_]+$/.test(path.slice(path.lastIndexOf('.') + 1)));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-json-'));
  expect((await cli('users', 'add', 'alice', '--groups', 'legal')).code).toBe(0);
  expect((await cli('keys', 'create', 'alice')).code).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--json on every command: snake_case keys', () => {
  it('ingest, docs, tables, users, keys, memories, status, search, reindex', async () => {
    const ingest = (await cliJson('ingest', corpus)) as { outcomes: Record<string, unknown>[] };
    expect(ingest).toMatchObject({ added: 12, failed: 0 });
    expect(Object.keys(ingest)).toContain('elapsed_ms');
    expect(ingest.outcomes[0]).toHaveProperty('doc_id');

    const docs = (await cliJson('docs', 'list')) as Record<string, unknown>[];
    expect(docs[0]).toMatchObject({
      doc_id: expect.any(String),
      chunk_count: expect.any(Number),
      content_hash: expect.any(String),
      ingested_at: expect.any(String),
    });
    const tables = (await cliJson('tables', 'list')) as Record<string, unknown>[];
    expect(tables[0]).toMatchObject({
      doc_id: expect.any(String),
      sql_name: expect.any(String),
      row_count: expect.any(Number),
    });
    expect((await cliJson('users', 'list')) as unknown[]).toEqual([
      { name: 'alice', groups: ['legal'], roles: ['member'], active: true, created_at: expect.any(String) },
    ]);
    expect((await cliJson('keys', 'list', 'alice')) as unknown[]).toEqual([
      { id: expect.any(String), user: 'alice', created_at: expect.any(String) },
    ]);
    expect(await cliJson('memories', 'list', '--as', 'alice')).toEqual([]);
    const status = await cliJson('status');
    const search = await cliJson('search', 'CT-2024-0193', '--as', 'alice');
    const reindex = await cliJson('reindex');
    expect(reindex).toMatchObject({
      chunks: expect.any(Number),
      embedder: { id: expect.any(String), dimension: expect.any(Number) },
      previous_embedder: { id: expect.any(String) },
    });

    for (const output of [ingest, docs, tables, status, search, reindex]) expect(notSnakeCase(output)).toEqual([]);
  });
});
