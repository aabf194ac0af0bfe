import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.ts';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = join(repo, 'samples/corpus');

interface JsonResult {
  rank: number;
  chunk_id: string;
  doc_id: string;
  text: string;
  channels: { bm25?: { rank: number; score: number }; vector?: { rank: number; score: number } };
}

let dir: string;
let db: string;
const cli = (...args: string[]) => runCli(['--db', db, ...args]);
const search = async (query: string, ...flags: string[]): Promise<JsonResult[]> => {
  const run = await cli('search', query, '--json', ...flags);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as JsonResult[];
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-cli-'));
  db = join(dir, 'store.db');
  for (const [name, groups] of [
    ['alice', 'legal'],
    ['bob', 'engineering'],
    ['frank', 'treasury,finance'],
  ] as const) {
    expect((await cli('users', 'add', name, '--groups', groups)).code).toBe(0);
  }
  const run = await cli('ingest', corpus);
  expect(run.code, run.stderr).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evident CLI on the sample corpus', () => {
  it('ingests every sample file and reports per-file progress lines', async () => {
    const run = await cli('ingest', corpus, '--json');
    const summary = JSON.parse(run.stdout) as { unchanged: number; added: number; failed: number };
    expect(summary).toMatchObject({ added: 0, failed: 0, unchanged: 12 });
    expect(run.stderr).toMatch(/\[12\/12\] unchanged zh\/supplier-contract-summary\.md/);
  });

  it.each([
    ['CT-2024-0193', 'contracts/ct-2024-0193.md', 'CT-2024-0193'],
    ['HIP-3', 'tickets/support-tickets.md', 'HIP-3'],
    ['/v2/orders/{id}', 'api/orders-api.md', '/v2/orders/{id}'],
    ['order_total_usd', undefined, 'order_total_usd'], // the API doc and the orders CSV both name it
    ['AAPL', 'finance/market-notes.txt', 'AAPL'],
    ['0x7a25f3c9', 'finance/market-notes.txt', '0x7a25f3c9'],
    ['INV-88412', 'tickets/support-tickets.md', 'INV-88412'],
  ])('puts the chunk naming %s first', async (query, docId, needle) => {
    const [first] = await search(query);
    if (docId) expect(first?.doc_id).toBe(docId);
    expect(first?.text).toContain(needle);
  });

  it('finds amounts written with and without the dollar sign', async () => {
    for (const query of ['$500K', '500K']) {
      const [first] = await search(query);
      expect(first?.text).toContain('$500K');
    }
  });

  it('finds Chinese passages by a Chinese query and English ones by an English query', async () => {
    const [leave] = await search('年假可以结转几天');
    expect(leave?.doc_id).toBe('zh/employee-handbook.md');
    expect(leave?.text).toContain('年假');
    const [hotel] = await search('hotel limit in London');
    expect(hotel?.doc_id).toBe('policies/expenses.md');
  });

  it('filters by the principal inside both channels', async () => {
    const both = ['--channels', 'bm25,vector'];
    const asAlice = await search('termination fee CT-2024-0193', '--as', 'alice', ...both);
    expect(asAlice[0]?.doc_id).toBe('contracts/ct-2024-0193.md');

    const asBob = await search('termination fee CT-2024-0193', '--as', 'bob', '-k', '50', ...both);
    const restricted = [
      'contracts/ct-2024-0193.md',
      'contracts/ct-2023-0077.md',
      'zh/supplier-contract-summary.md',
      'finance/market-notes.txt',
      'policies/security-incident.md',
    ];
    expect(asBob.length).toBeGreaterThan(0);
    for (const result of asBob) expect(restricted).not.toContain(result.doc_id);
    expect(JSON.stringify(asBob)).not.toContain('48,000');

    // The sidecar ACL (group:treasury, user:erin) governs market-notes.txt.
    expect((await search('AAPL', '--as', 'frank', ...both))[0]?.doc_id).toBe('finance/market-notes.txt');
    expect((await search('AAPL', '--groups', 'engineering', ...both)).map((r) => r.doc_id)).not.toContain(
      'finance/market-notes.txt',
    );
  });

  it('lists only the documents a principal may see', async () => {
    const all = JSON.parse((await cli('docs', 'list', '--json')).stdout) as { doc_id: string; acl: string[] }[];
    expect(all).toHaveLength(12);
    expect(all.find((d) => d.doc_id === 'finance/market-notes.txt')?.acl).toEqual(['group:treasury', 'user:erin']);
    const bobs = JSON.parse((await cli('docs', 'list', '--as', 'bob', '--json')).stdout) as { doc_id: string }[];
    expect(bobs.map((d) => d.doc_id)).not.toContain('contracts/ct-2024-0193.md');
    expect(bobs.map((d) => d.doc_id)).toContain('contracts/nda-template.md');
  });

  it('lists the SQL tables made from spreadsheets, with typed columns', async () => {
    const run = await cli('tables', 'list');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /tbl_\w+\s+finance\/orders-q1\.csv\s+10\s+order_id text, customer text, region text, order_date text, order_total_usd real, status text/,
    );
  });

  it('explains per-channel ranks', async () => {
    const run = await cli('search', 'webhook retries backoff', '--explain');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/rank\s+chunk_id\s+bm25 rank\s+bm25 score\s+vector rank/);
    expect(run.stdout).toContain('api/webhooks.html#');
    expect(run.stdout).toMatch(/timings: .*ms/);
  });

  it('fails with one clear line and no stack trace', async () => {
    const unknownUser = await cli('search', 'fees', '--as', 'nobody');
    expect(unknownUser.code).toBe(1);
    expect(unknownUser.stderr).toBe(
      'error: No user named "nobody". Add them with `evident users add nobody --groups …`.\n',
    );

    const both = await cli('search', 'fees', '--as', 'alice', '--groups', 'legal');
    expect(both.code).toBe(1);
    expect(both.stderr.trim().split('\n')).toHaveLength(1);

    const badOption = await cli('search', 'fees', '--nope');
    expect(badOption.code).not.toBe(0);
    expect(badOption.stderr).toMatch(/unknown option '--nope'/);
    expect(badOption.stderr).not.toMatch(/\n\s+at /);
  });

  it('removes a document so it is no longer found', async () => {
    const scratch = join(dir, 'rm.db');
    const file = join(dir, 'memo.md');
    await writeFile(file, '# Memo\n\nThe project codename is BLUEFINCH-42.\n');
    expect((await runCli(['--db', scratch, 'ingest', file])).code).toBe(0);
    const found = JSON.parse(
      (await runCli(['--db', scratch, 'search', 'BLUEFINCH-42', '--json'])).stdout,
    ) as JsonResult[];
    expect(found[0]?.doc_id).toBe('memo.md');
    expect((await runCli(['--db', scratch, 'docs', 'rm', 'memo.md'])).stdout).toBe('removed memo.md\n');
    expect(JSON.parse((await runCli(['--db', scratch, 'search', 'BLUEFINCH-42', '--json'])).stdout)).toEqual([]);
    const again = await runCli(['--db', scratch, 'docs', 'rm', 'memo.md']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No document named "memo.md"/);
  });
});

describe('ingesting bad files', () => {
  it('reports each bad file with its reason, ingests the good ones, and exits non-zero', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'evident-bad-'));
    const store = join(folder, 'bad.db'); // the store's own files inside the folder are not ingested
    try {
      await writeFile(join(folder, 'good.md'), '# Good\n\nRefund window is 30 days for order REF-7781.\n');
      await writeFile(join(folder, 'empty.txt'), '');
      await writeFile(join(folder, 'program.exe'), Buffer.from([0x4d, 0x5a, 0x90, 0x00]));
      await writeFile(join(folder, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0x69, 0x72]));
      await writeFile(join(folder, 'broken.pdf'), Buffer.from('%PDF-1.7\nthis is not really a pdf'));
      await writeFile(join(folder, 'big.txt'), 'x '.repeat(4000));
      const run = await runCli(['--db', store, 'ingest', folder, '--max-file-bytes', '4096']);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^1 added, 0 updated, 0 unchanged, 5 failed/);
      expect(run.stderr).toMatch(/failed empty\.txt: empty\.txt is empty \(0 bytes\)/);
      expect(run.stderr).toMatch(/failed program\.exe: program\.exe: unsupported file type "\.exe"/);
      expect(run.stderr).toMatch(/failed latin1\.txt: .*UTF-8/);
      expect(run.stderr).toMatch(/failed broken\.pdf: .*/);
      expect(run.stderr).toMatch(/failed big\.txt: big\.txt is 7\.8 KiB, over the 4\.0 KiB limit/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      const docs = JSON.parse((await runCli(['--db', store, 'docs', 'list', '--json'])).stdout) as { doc_id: string }[];
      expect(docs.map((d) => d.doc_id)).toEqual(['good.md']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('keeps the stored version when a changed file turns out to be broken', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'evident-keep-'));
    try {
      const store = join(dir, 'keep.db');
      const file = join(folder, 'notes.txt');
      await writeFile(file, 'The vendor code is KESTREL-9.\n');
      expect((await runCli(['--db', store, 'ingest', file])).code).toBe(0);
      await writeFile(file, Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x20, 0xc3, 0x28, 0x0a])); // invalid UTF-8
      const run = await runCli(['--db', store, 'ingest', file]);
      expect(run.code).toBe(1);
      const [first] = JSON.parse(
        (await runCli(['--db', store, 'search', 'KESTREL-9', '--json'])).stdout,
      ) as JsonResult[];
      expect(first?.text).toContain('KESTREL-9');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('updates a changed file in place and leaves no trace of the old text', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'evident-update-'));
    try {
      const store = join(dir, 'update.db');
      const file = join(folder, 'prices.md');
      await copyFile(join(corpus, 'policies/expenses.md'), file);
      expect((await runCli(['--db', store, 'ingest', file])).code).toBe(0);
      await writeFile(file, '# Prices\n\nThe nightly hotel limit is now $260 everywhere.\n');
      const run = await runCli(['--db', store, 'ingest', file, '--json']);
      expect(JSON.parse(run.stdout)).toMatchObject({ updated: 1, added: 0 });
      const results = JSON.parse(
        (await runCli(['--db', store, 'search', 'hotel limit', '--json', '-k', '20'])).stdout,
      ) as JsonResult[];
      expect(results.map((r) => r.text).join('\n')).toContain('$260');
      expect(results.map((r) => r.text).join('\n')).not.toContain('$320');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('the evident bin', () => {
  it('runs from the checkout as a real process', async () => {
    const exec = promisify(execFile);
    const { stdout } = await exec(process.execPath, [
      join(repo, 'bin/evident.js'),
      '--db',
      db,
      'search',
      'CT-2024-0193',
      '--json',
      '-k',
      '1',
    ]);
    expect((JSON.parse(stdout) as JsonResult[])[0]?.doc_id).toBe('contracts/ct-2024-0193.md');
    const failure = await exec(process.execPath, [
      join(repo, 'bin/evident.js'),
      '--db',
      db,
      'docs',
      'rm',
      'nope.md',
    ]).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({
      code: 1,
      stderr: 'error: No document named "nope.md". See `evident docs list` for the doc_ids.\n',
    });
  });
});

describe('embedder binding and reindex', () => {
  it('refuses another embedder with a message naming reindex, and reindex rebinds the store', async () => {
    const store = join(dir, 'reindex.db');
    expect((await runCli(['--db', store, 'ingest', join(corpus, 'api')])).code).toBe(0);

    const mismatch = await runCli(['--db', store, '--embedder', 'offline:256', 'search', 'rate limits']);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toBe(
      "error: The store's vectors were built by embedder offline-hash-v1-512 (dimension 512), but offline-hash-v1-256 (dimension 256) is configured. " +
        'Run `evident reindex` to rebuild the vectors with offline-hash-v1-256, or configure offline-hash-v1-512 again.\n',
    );
    const ingestMismatch = await runCli([
      '--db',
      store,
      '--embedder',
      'offline:256',
      'ingest',
      join(corpus, 'tickets'),
    ]);
    expect(ingestMismatch.code).toBe(1);
    expect(ingestMismatch.stderr).toMatch(/evident reindex/);

    const reindex = await runCli(['--db', store, '--embedder', 'offline:256', 'reindex']);
    expect(reindex.code).toBe(0);
    expect(reindex.stdout).toBe('reindexed 2 chunks: offline-hash-v1-512 → offline-hash-v1-256 (dimension 256)\n');
    const after = await runCli([
      '--db',
      store,
      '--embedder',
      'offline:256',
      'search',
      'rate limits',
      '--channels',
      'vector',
      '--json',
    ]);
    expect(after.code).toBe(0);
    expect((JSON.parse(after.stdout) as JsonResult[])[0]?.doc_id).toBe('orders-api.md'); // relative to the ingested folder
    const status = JSON.parse(
      (await runCli(['--db', store, '--embedder', 'offline:256', 'status', '--json'])).stdout,
    ) as { vectors: string };
    expect(status.vectors).toBe('offline-hash-v1-256 (dimension 256)');
  });
});

describe('ACL sources', () => {
  it('lets --acl override sidecars and front matter for a run', async () => {
    const store = join(dir, 'acl.db');
    expect((await runCli(['--db', store, 'users', 'add', 'gina', '--groups', 'audit'])).code).toBe(0);
    expect((await runCli(['--db', store, 'ingest', join(corpus, 'contracts'), '--acl', 'group:audit'])).code).toBe(0);
    const docs = JSON.parse((await runCli(['--db', store, 'docs', 'list', '--json'])).stdout) as { acl: string[] }[];
    expect(docs.map((d) => d.acl)).toEqual([['group:audit'], ['group:audit'], ['group:audit']]);
    const found = JSON.parse(
      (await runCli(['--db', store, 'search', 'CT-2024-0193', '--as', 'gina', '--json'])).stdout,
    ) as JsonResult[];
    expect(found[0]?.doc_id).toBe('ct-2024-0193.md');
    const invalid = await runCli(['--db', store, 'ingest', join(corpus, 'contracts'), '--acl', 'legal']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toBe(
      'error: Invalid ACL entry "legal" in --acl. Use entries like "group:legal" or "user:bob".\n',
    );
  });

  it('reports a malformed sidecar for that file only', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'evident-sidecar-'));
    try {
      await writeFile(join(folder, 'a.md'), '# A\n\nAlpha text.\n');
      await writeFile(join(folder, 'a.md.acl.json'), '{"acl": "group:legal"}');
      await writeFile(join(folder, 'b.md'), '# B\n\nBeta text.\n');
      const run = await runCli(['--db', join(dir, 'sidecar.db'), 'ingest', folder]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /failed a\.md: .*a\.md\.acl\.json has no "acl" array\. It must hold \{"acl": \["group:legal", "user:bob"\]\}\./,
      );
      expect(run.stdout).toMatch(/^1 added/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
