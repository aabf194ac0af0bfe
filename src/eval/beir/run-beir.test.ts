import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWith, sharedDataset } from '../../testing/requirements.ts';
import { runCli } from '../../testing/run-cli.ts';
import type { BeirReport } from './run-beir.ts';

const SCIFACT = sharedDataset('scifact');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-beir-'));
  const corpus = [
    {
      _id: 'd1',
      title: 'Aspirin and headaches',
      text: 'Aspirin relieves tension headaches in most adults within two hours.',
    },
    { _id: 'd2', title: 'Vitamin D', text: 'Vitamin D deficiency is common in northern latitudes during winter.' },
    { _id: 'd3', title: 'Coffee', text: 'Caffeine in coffee improves short-term alertness but disturbs sleep.' },
    {
      _id: 'd4',
      title: 'Sleep',
      text: 'Adults need seven to nine hours of sleep; shift work disturbs circadian rhythm.',
    },
  ];
  const queries = [
    { _id: 'q1', text: 'does aspirin help headaches' },
    { _id: 'q2', text: 'vitamin D deficiency in winter' },
    { _id: 'q3', text: 'what disturbs sleep' },
    { _id: 'q9', text: 'a query without judgements is ignored' },
  ];
  await mkdir(join(dir, 'tiny', 'qrels'), { recursive: true });
  await writeFile(join(dir, 'tiny', 'corpus.jsonl'), corpus.map((d) => JSON.stringify(d)).join('\n') + '\n');
  await writeFile(join(dir, 'tiny', 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
  await writeFile(
    join(dir, 'tiny', 'qrels', 'test.tsv'),
    'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq3\td4\t1\nq3\td3\t1\n',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('evident eval beir', () => {
  it('scores each pipeline on a BEIR folder and prints one JSON object', async () => {
    const run = await runCli(['eval', 'beir', join(dir, 'tiny'), '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as BeirReport;
    expect(report).toMatchObject({
      dataset: 'tiny',
      split: 'test',
      documents: 4,
      failed_documents: 0,
      queries: 3,
      default_pipeline: 'bm25',
    });
    expect(Object.keys(report.pipelines)).toEqual(['bm25', 'vector', 'fused']);
    // q1 and q2 rank their document first; q3 has two relevant documents and both are found.
    expect(report.pipelines.bm25?.mrr_at_10).toBe(1);
    expect(report.pipelines.bm25?.recall_at_100).toBe(1);
    expect(report.pipelines.bm25?.ndcg_at_10).toBeCloseTo(1, 5);
    expect(run.stderr).toMatch(/ingest 4\/4 documents/);
    expect(run.stderr).toMatch(/search bm25: 3\/3 queries/);
  });

  it('adds the fused + rerank row when a reranker is configured, and prints a table', async () => {
    const run = await runCli(['--reranker', 'offline', 'eval', 'beir', join(dir, 'tiny')]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^tiny \(test\): 4 documents → 4 chunks in [\d.]+ s, 3 queries; embedder offline-hash-v1-512, reranker offline-lexical-v1/,
    );
    expect(run.stdout).toMatch(/pipeline\s+nDCG@10\s+Recall@100\s+MRR@10\s+p50 ms\s+p95 ms/);
    expect(run.stdout).toMatch(/\nfused\+rerank\s+[\d.]+/);
    expect(run.stdout).toMatch(/\nbm25\+rerank \(default\)\s+[\d.]+/);
  });

  it('scores the FTS5 porter baseline in the same run when asked', async () => {
    const run = await runCli(['eval', 'beir', join(dir, 'tiny'), '--baseline', 'fts5', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as BeirReport;
    const baseline = report.pipelines['fts5 (baseline: porter unicode61)'];
    // "headaches" / "disturbs" match only through porter stemming of both sides; every query finds its documents.
    expect(baseline?.recall_at_100).toBe(1);
    expect(baseline?.mrr_at_10).toBe(1);
    const unknown = await runCli(['eval', 'beir', join(dir, 'tiny'), '--baseline', 'lucene']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/--baseline lucene is not a known baseline\. Use one of: fts5, fts5-unicode61\./);
  });

  it('explains what a BEIR folder needs when a file is missing', async () => {
    const run = await runCli(['eval', 'beir', join(dir, 'tiny'), '--split', 'dev']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error: .*tiny is not a BEIR folder for split "dev": qrels file .*dev\.tsv is missing\. A BEIR folder holds corpus\.jsonl, queries\.jsonl and qrels\/<split>\.tsv\.\n$/,
    );
  });

  itWith(SCIFACT, 'runs on SciFact with BM25 in the expected range', async (scifact) => {
    const run = await runCli(['eval', 'beir', scifact, '--split', 'train', '--limit', '40', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as BeirReport;
    expect(report.documents).toBe(5183);
    expect(report.queries).toBe(40);
    // A sanity floor, not the benchmark: a broken analyzer or ranking drops far below it.
    expect(report.pipelines.bm25?.ndcg_at_10).toBeGreaterThan(0.55);
  });
});
