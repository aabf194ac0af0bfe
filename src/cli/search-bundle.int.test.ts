import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of bin/, without declarations
import { commandOf } from '../../bin/command-of.js';
import { runCli } from '../testing/run-cli.ts';

const exec = promisify(execFile);
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bundle = join(repo, 'dist/cli-bundle/main.js');

let dir: string;
let db: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-search-bundle-'));
  db = join(dir, 'store.db');
  expect((await runCli(['--db', db, 'users', 'add', 'alice', '--groups', 'legal'])).code).toBe(0);
  const run = await runCli(['--db', db, 'ingest', join(repo, 'samples/corpus')]);
  expect(run.code, run.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One CLI process: the bin (which runs `search` from the bundle) or the unbundled compiled CLI. */
async function cliProcess(
  how: 'bin' | 'plain',
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv =
    how === 'bin'
      ? [join(repo, 'bin/evident.js'), ...args]
      : [
          '--input-type=module',
          '-e',
          `import { main } from ${JSON.stringify(join(repo, 'dist/cli/main.js'))}; process.exitCode = await main(${JSON.stringify(args)});`,
        ];
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('EVIDENT_') || name.startsWith('OTEL_')) delete env[name];
  try {
    const { stdout, stderr } = await exec(process.execPath, argv, { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the search bundle', () => {
  it('is built beside the compiled CLI', () => {
    expect(existsSync(bundle)).toBe(true);
  });

  it('answers `evident search` as the unbundled CLI does: results, principals, failures', async () => {
    for (const args of [
      ['--db', db, 'search', 'hotel limit in London', '--json'],
      ['--db', db, 'search', 'termination fee CT-2024-0193', '--as', 'alice', '--json', '-k', '8'],
      ['--db', db, '--reranker', 'none', 'search', '年假可以结转几天', '--channels', 'bm25'],
      ['--db', db, 'search', 'fees', '--as', 'nobody'],
      ['--db', db, 'search', 'fees', '--nope'],
    ]) {
      const [bundled, plain] = [await cliProcess('bin', args), await cliProcess('plain', args)];
      expect(bundled, args.join(' ')).toEqual(plain);
    }
  }, 120_000);
});

describe('the command the bin reads', () => {
  it('is the first argument that is no option and no global option value', () => {
    expect(commandOf(['search', 'q'])).toBe('search');
    expect(commandOf(['--db', 'search', 'docs', 'list'])).toBe('docs');
    expect(commandOf(['--debug', '--config', 'x.json', 'search', 'q'])).toBe('search');
    expect(commandOf(['--reranker', 'none', '--embedder', 'offline', 'ask', 'search'])).toBe('ask');
    expect(commandOf(['--help'])).toBeUndefined();
  });
});
