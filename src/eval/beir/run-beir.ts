import { basename, resolve } from 'node:path';
import type { Principal } from '../../domain/index.ts';
import type { Evident } from '../../evident.ts';
import type { IngestProgress } from '../../ingest/ingest-progress.ts';
import type { SearchOptions } from '../../retrieval/hybrid-search.ts';
import { mean, mrrAt, ndcgAt, percentile, recallAt } from '../metrics/ranking-metrics.ts';
import { readBeirDataset } from './beir-dataset.ts';
import { buildFts5Baseline, type Fts5BaselineName } from './fts5-baseline.ts';

/** A retrieval pipeline as `evident search` can run it. */
export interface BeirPipeline {
  name: string;
  options: SearchOptions;
}

export interface PipelineScores {
  ndcg_at_10: number;
  recall_at_100: number;
  mrr_at_10: number;
  p50_ms: number;
  p95_ms: number;
}

export interface BeirReport {
  dataset: string;
  split: string;
  documents: number;
  /** Corpus entries that could not be ingested (e.g. no text). */
  failed_documents: number;
  chunks: number;
  queries: number;
  ingest_ms: number;
  embedder: string;
  reranker: string;
  /** The pipeline `evident search` runs with this configuration. */
  default_pipeline: string;
  pipelines: Record<string, PipelineScores>;
}

export type BeirProgress =
  | { phase: 'ingest'; progress: IngestProgress }
  | { phase: 'search'; pipeline: string; done: number; total: number };

export interface RunBeirOptions {
  split?: string;
  /** Evaluate only the first n judged queries (quick checks). */
  limit?: number;
  onProgress?: (progress: BeirProgress) => void;
  /** Free baselines scored in the same run on the same folder (e.g. `fts5`: SQLite FTS5 `porter unicode61`). */
  baselines?: readonly Fts5BaselineName[];
}

/** Every BEIR document is public, so the evaluation runs as an ordinary member with no groups. */
const EVALUATOR: Principal = { id: 'beir-eval', groups: [], roles: ['member'] };
const DEPTH = 100;

/** The pipelines compared side by side: each channel alone, fused, and fused + rerank when a reranker is configured. */
export function beirPipelines(evident: Evident): BeirPipeline[] {
  const pipelines: BeirPipeline[] = [
    { name: 'bm25', options: { channels: ['bm25'], rerank: false } },
    { name: 'vector', options: { channels: ['vector'], rerank: false } },
    { name: 'fused', options: { channels: ['bm25', 'vector'], rerank: false } },
  ];
  if (evident.reranker)
    pipelines.push({ name: 'fused+rerank', options: { channels: ['bm25', 'vector'], rerank: true } });
  return pipelines;
}

/** Name of the pipeline that the configuration makes `evident search` run. */
export function defaultPipelineName(evident: Evident): string {
  const channels = evident.retrieval.channels;
  const base = channels.length === 2 ? 'fused' : (channels[0] as string);
  return evident.reranker ? `${base}+rerank` : base;
}

/** Ingests a BEIR folder into `evident`'s store and scores every pipeline on the split's judged queries. */
export async function runBeir(evident: Evident, dir: string, options: RunBeirOptions = {}): Promise<BeirReport> {
  const split = options.split ?? 'test';
  const dataset = await readBeirDataset(dir, split);
  const ingestStarted = performance.now();
  const summary = await evident.ingestor.ingestRecords(
    dataset.corpus.map((doc) => ({ docId: doc.id, title: doc.title, text: doc.text, source: `beir:${doc.id}` })),
    { onProgress: (progress) => options.onProgress?.({ phase: 'ingest', progress }) },
  );
  const ingestMs = performance.now() - ingestStarted;
  const queries = options.limit ? dataset.queries.slice(0, options.limit) : dataset.queries;

  const pipelines = beirPipelines(evident);
  const defaultName = defaultPipelineName(evident);
  if (!pipelines.some((p) => p.name === defaultName)) {
    const { channels } = evident.retrieval;
    pipelines.push({ name: defaultName, options: { channels, rerank: Boolean(evident.reranker) } });
  }

  const scores: Record<string, PipelineScores> = {};
  for (const pipeline of pipelines) {
    const ndcg: number[] = [];
    const recall: number[] = [];
    const mrr: number[] = [];
    const latencies: number[] = [];
    for (const [index, query] of queries.entries()) {
      const started = performance.now();
      const trace = await evident.search.search(query.text, EVALUATOR, {
        ...pipeline.options,
        topK: DEPTH,
        channelDepth: DEPTH,
      });
      latencies.push(performance.now() - started);
      const ranked = [...new Set(trace.results.map((result) => result.chunk.docId))];
      const judgements = dataset.qrels.get(query.id) ?? new Map<string, number>();
      ndcg.push(ndcgAt(ranked, judgements, 10));
      recall.push(recallAt(ranked, judgements, 100));
      mrr.push(mrrAt(ranked, judgements, 10));
      if ((index + 1) % 50 === 0 || index + 1 === queries.length) {
        options.onProgress?.({ phase: 'search', pipeline: pipeline.name, done: index + 1, total: queries.length });
      }
    }
    scores[pipeline.name] = {
      ndcg_at_10: mean(ndcg),
      recall_at_100: mean(recall),
      mrr_at_10: mean(mrr),
      p50_ms: percentile(latencies, 50),
      p95_ms: percentile(latencies, 95),
    };
  }

  for (const name of options.baselines ?? []) {
    const baseline = buildFts5Baseline(dataset.corpus, name);
    try {
      const ndcg: number[] = [];
      const recall: number[] = [];
      const mrr: number[] = [];
      const latencies: number[] = [];
      for (const query of queries) {
        const started = performance.now();
        const ranked = baseline.search(query.text, DEPTH);
        latencies.push(performance.now() - started);
        const judgements = dataset.qrels.get(query.id) ?? new Map<string, number>();
        ndcg.push(ndcgAt(ranked, judgements, 10));
        recall.push(recallAt(ranked, judgements, 100));
        mrr.push(mrrAt(ranked, judgements, 10));
      }
      options.onProgress?.({ phase: 'search', pipeline: name, done: queries.length, total: queries.length });
      scores[`${name} (baseline: ${baseline.tokenizer})`] = {
        ndcg_at_10: mean(ndcg),
        recall_at_100: mean(recall),
        mrr_at_10: mean(mrr),
        p50_ms: percentile(latencies, 50),
        p95_ms: percentile(latencies, 95),
      };
    } finally {
      baseline.close();
    }
  }

  return {
    dataset: basename(resolve(dir)),
    split,
    documents: dataset.corpus.length,
    failed_documents: summary.failed,
    chunks: (await evident.store.stats()).chunks,
    queries: queries.length,
    ingest_ms: Math.round(ingestMs),
    embedder: evident.embedder.id,
    reranker: evident.reranker?.id ?? 'none',
    default_pipeline: defaultName,
    pipelines: scores,
  };
}
