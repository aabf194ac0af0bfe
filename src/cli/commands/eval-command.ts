import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { runBeir, type BeirReport } from '../../eval/beir/run-beir.ts';
import { intFlag, withEvident, type GlobalOptions } from '../context.ts';
import { formatTable, json, type CliIo } from '../io.ts';

interface BeirFlags {
  split: string;
  json?: boolean;
  limit?: string;
}

export function registerEvalCommand(program: Command, io: CliIo): void {
  const evalCommand = program.command('eval').description('Evaluate retrieval and agents');
  evalCommand
    .command('beir')
    .description('Ingest a BEIR folder into a scratch store (or --db) and score BM25, vector, fused and fused+rerank')
    .argument('<dir>', 'folder with corpus.jsonl, queries.jsonl, qrels/<split>.tsv')
    .option('--split <split>', 'qrels split', 'test')
    .option('--limit <n>', 'evaluate only the first n judged queries')
    .option('--json', 'print the report as one JSON object')
    .action(async (dir: string, flags: BeirFlags, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const limit = intFlag('--limit', flags.limit);
      // Without an explicit --db the evaluation must not mix its corpus into the user's store.
      const scratch = global.db ? undefined : await mkdtemp(join(tmpdir(), 'evident-beir-'));
      try {
        const db = global.db ?? join(scratch as string, 'beir.db');
        const report = await withEvident({ ...global, db }, {}, (evident) =>
          runBeir(evident, dir, {
            split: flags.split,
            ...(limit ? { limit } : {}),
            onProgress: (p) => {
              if (p.phase === 'ingest') {
                const { filesDone, filesTotal, chunks } = p.progress;
                if (filesDone % 500 === 0 || filesDone === filesTotal) io.err(`ingest ${filesDone}/${filesTotal} documents, ${chunks} chunks\n`);
              } else {
                io.err(`search ${p.pipeline}: ${p.done}/${p.total} queries\n`);
              }
            },
          }),
        );
        io.out(flags.json ? json(report) : renderBeir(report));
      } finally {
        if (scratch) await rm(scratch, { recursive: true, force: true });
      }
    });
}

export function renderBeir(report: BeirReport): string {
  const head =
    `${report.dataset} (${report.split}): ${report.documents} documents → ${report.chunks} chunks in ${(report.ingest_ms / 1000).toFixed(1)} s, ` +
    `${report.queries} queries; embedder ${report.embedder}, reranker ${report.reranker}` +
    (report.failed_documents ? `; ${report.failed_documents} documents failed to ingest` : '') +
    '\n\n';
  const rows = Object.entries(report.pipelines).map(([name, s]) => [
    name + (name === report.default_pipeline ? ' (default)' : ''),
    s.ndcg_at_10.toFixed(3),
    s.recall_at_100.toFixed(3),
    s.mrr_at_10.toFixed(3),
    s.p50_ms.toFixed(1),
    s.p95_ms.toFixed(1),
  ]);
  return head + formatTable(['pipeline', 'nDCG@10', 'Recall@100', 'MRR@10', 'p50 ms', 'p95 ms'], rows);
}
