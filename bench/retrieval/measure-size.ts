/**
 * One corpus size: builds a SQLite store of synthetic chunks through the real ingestion path, then times every
 * retrieval stage and three end-to-end searches, one query at a time, as a non-admin principal with groups:
 * `evident search` with the default config (whatever channels and reranker it resolves to), and the full hybrid
 * pipeline (BM25 + vector fused) without and with the offline reranker.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { loadConfig, type ConfigInput, type EvidentConfig } from '../../src/config/index.ts';
import type { ChannelHit, Principal } from '../../src/domain/index.ts';
import { createEvident, type Evident } from '../../src/evident.ts';
import type { RerankCandidate } from '../../src/models/reranker.ts';
import { analyzeQuery } from '../../src/text/analyzer.ts';
import { dedupeCandidates } from '../../src/retrieval/dedupe.ts';
import { reciprocalRankFusion, type FusedCandidate } from '../../src/retrieval/fuse.ts';
import { chunkSearchText } from '../../src/retrieval/search-text.ts';
import type { ChunkWithSource } from '../../src/store/store.ts';
import { postgresStoreBytes } from '../store/postgres-store-size.ts';
import { generateQueries, SyntheticCorpus, type BenchQuery, type QueryKind } from './corpus.ts';
import { profiled } from './profiler.ts';
import { resumePoint, type ResumePoint } from './resume-build.ts';
import { collectGarbage, memorySnapshot, summarize, type LatencySummary, type MemorySnapshot } from './stats.ts';

export interface SizeOptions {
  chunks: number;
  queries: number;
  warmup: number;
  seed: number;
  /** An empty folder for the store file. */
  workDir: string;
  /** A PostgreSQL store (an empty schema) instead of the SQLite file in `workDir`. */
  databaseUrl?: string;
  /** Write `.cpuprofile` files of ingestion and of the hybrid-search loop here. */
  profileDir?: string;
  /**
   * `workDir` outlives the run: a store that a previous run finished ingesting there (same size and seed, see
   * `ingest.json`) is measured again instead of rebuilt, with the ingestion figures recorded when it was built.
   */
  reuse?: boolean;
  log: (line: string) => void;
}

export interface StageRow {
  stage: string;
  principal: 'member' | 'admin';
  latency: LatencySummary;
  /** Mean result count, to show that a stage did real work. */
  meanResults?: number;
}

export interface SizeResult {
  targetChunks: number;
  chunks: number;
  documents: number;
  restrictedDocuments: number;
  /** Share of chunks the benchmark principal may see. */
  visibleChunkShare: number;
  ingest: {
    ms: number;
    chunksPerSec: number;
    documentsPerSec: number;
    lastTenthChunksPerSec: number;
    /** Chunks per second of this process's CPU time (user + system): what the rate would be with a core to itself. */
    chunksPerCpuSec: number;
    /** When the store was built, if this run reused a store an earlier run ingested (the figures are that run's). */
    reusedFrom?: string;
    /** Chunks an unfinished build had written before this one continued it. */
    resumedFromChunks?: number;
  };
  /** 1-minute load average when ingestion started, when it ended, and after the queries: other work skews results. */
  load: { ingestStart: number; ingestEnd: number; queriesEnd: number };
  storeMiB: number;
  /** The vector snapshot file beside a SQLite store (`.<store>.vectors`), written by the first vector query. */
  vectorSnapshotMiB?: number;
  /** The first vector query of a process loads every vector into memory. */
  vectorIndexLoadMs: number;
  /** What the default config resolved to, as observed in its search traces. */
  defaultSearch: { channels: string[]; reranked: boolean };
  stages: StageRow[];
  byKind: Partial<
    Record<QueryKind, { n: number; defaultSearch: LatencySummary; fullHybrid: LatencySummary; keyword: LatencySummary }>
  >;
  /** HybridSearch's own `timingsMs` per stage, for the default search and the full hybrid search with rerank. */
  searchStageTimings: { defaultSearch: Record<string, LatencySummary>; fullHybrid: Record<string, LatencySummary> };
  /** A fresh process's first search: open the store, check the embedder, load vectors, search. */
  coldSearchMs: { defaultSearch: number[]; fullHybrid: number[] };
  /** After ingestion; after the end-to-end searches (vector index loaded); after the stage rows (plus harness inputs). */
  memory: { afterIngest: MemorySnapshot; afterQueries: MemorySnapshot; afterStages: MemorySnapshot };
}

/** A non-admin member of two groups, one of which restricted documents use: the ACL filter is always on. */
export const MEMBER: Principal = { id: 'bench-user', groups: ['engineering', 'support'], roles: ['member'] };
const ADMIN: Principal = { id: 'bench-admin', groups: [], roles: ['admin'] };

/** The default configuration, untouched by the caller's environment or config file, with the store at `db`. */
export const benchConfig = (workDir: string, db: string, flags: ConfigInput = {}): EvidentConfig =>
  loadConfig({ env: {}, cwd: workDir, flags: { ...flags, db } });

/** The full pipeline whatever the defaults are: both channels fused, the offline reranker available. */
const FULL_HYBRID: ConfigInput = { reranker: 'offline', retrieval: { channels: ['bm25', 'vector'] } };

export const SEARCH_ROWS = {
  defaultSearch: 'evident search (default config)',
  hybridNoRerank: 'hybrid: bm25 + vector, no rerank',
  fullHybrid: 'hybrid: bm25 + vector + offline rerank',
} as const;

/** Table order: the pipeline's stages in order, then end to end; member before admin. */
const STAGE_ORDER = [
  'analyze query',
  'keyword channel (BM25)',
  'embed query',
  'vector channel',
  'RRF fusion',
  'fetch candidates',
  'dedupe',
  'rerank (offline)',
  SEARCH_ROWS.defaultSearch,
  SEARCH_ROWS.hybridNoRerank,
  SEARCH_ROWS.fullHybrid,
];
const stageOrder = (row: StageRow): number => (row.principal === 'admin' ? 100 : 0) + STAGE_ORDER.indexOf(row.stage);

/** Times `fn` once per input after running it on the warm-up inputs; one call at a time. */
async function timeEach<T>(warm: readonly T[], inputs: readonly T[], fn: (input: T) => unknown): Promise<number[]> {
  for (const input of warm) await fn(input);
  collectGarbage();
  const samples: number[] = [];
  for (const input of inputs) {
    const started = performance.now();
    const out = fn(input);
    if (out instanceof Promise) await out;
    samples.push(performance.now() - started);
  }
  return samples;
}

/** Everything one query produces stage by stage, computed untimed, so each stage can be timed on real input. */
interface QueryInputs {
  query: BenchQuery;
  terms: string[];
  vector: Float32Array;
  bm25: ChannelHit[];
  vectorHits: ChannelHit[];
  fused: FusedCandidate[];
  pool: FusedCandidate[];
  chunks: Map<string, ChunkWithSource>;
  rerankInput: RerankCandidate[];
}

async function prepareInputs(services: Evident, queries: readonly BenchQuery[]): Promise<QueryInputs[]> {
  const { store, embedder, config } = services;
  const { channelDepth, rerankDepth, rrfK, topK } = config.retrieval;
  const out: QueryInputs[] = [];
  for (const query of queries) {
    const terms = analyzeQuery(query.text);
    const [vector] = await embedder.embed([query.text], 'query');
    if (!vector) throw new Error('the embedder returned no vector');
    const bm25 = await store.keywordSearch(terms, MEMBER, channelDepth);
    const vectorHits = await store.vectorSearch(vector, MEMBER, channelDepth);
    const fused = reciprocalRankFusion({ bm25, vector: vectorHits }, { k: rrfK });
    // As HybridSearch does: twice the rerank depth, so dedupe losses cannot starve the reranker.
    const pool = fused.slice(0, Math.max(rerankDepth, topK) * 2);
    const chunks = new Map(
      (
        await store.getChunks(
          pool.map((c) => c.chunkId),
          MEMBER,
        )
      ).map((c) => [c.id, c]),
    );
    const { kept } = dedupeCandidates(pool, (id) => chunks.get(id)?.text);
    const rerankInput = kept.slice(0, rerankDepth).map((candidate) => ({
      id: candidate.chunkId,
      text: chunkSearchText(chunks.get(candidate.chunkId) as ChunkWithSource),
      retrievalScore: candidate.score,
    }));
    out.push({ query, terms, vector, bm25, vectorHits, fused, pool, chunks, rerankInput });
  }
  return out;
}

/** What ingestion produced and cost: kept beside a reusable store (`ingest.json`) so a later run reports it. */
interface BuiltStore {
  seed: number;
  targetChunks: number;
  builtAt: string;
  documents: number;
  chunks: number;
  restricted: number;
  ingestMs: number;
  ingestCpuUs: number;
  lastTenth: { chunks: number; ms: number };
  loadAtIngestStart: number;
  loadAtIngestEnd: number;
  afterIngest: MemorySnapshot;
  /** Where this build continued an unfinished one (the timings and CPU are this run's, over the chunks it added). */
  resumedFrom?: ResumePoint;
}

const INGEST_RECORD = 'ingest.json';

/** The record of a finished build of this size and seed in `workDir`, if the store is there too. */
function readBuilt(options: SizeOptions, dbPath: string): BuiltStore | undefined {
  const path = join(options.workDir, INGEST_RECORD);
  if (!existsSync(path) || !existsSync(dbPath)) return undefined;
  const record = JSON.parse(readFileSync(path, 'utf8')) as BuiltStore;
  return record.seed === options.seed && record.targetChunks === options.chunks ? record : undefined;
}

/** A store left without a record (a build that did not finish): start again from nothing. */
function removeStore(dbPath: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
  rmSync(join(dirname(dbPath), `.${basename(dbPath)}.vectors`), { force: true });
  rmSync(join(dirname(dbPath), INGEST_RECORD), { force: true });
}

/** The real Ingestor (chunk, analyse, embed with the cache, one transaction per document) over the corpus. */
async function ingestCorpus(
  options: SizeOptions,
  corpus: SyntheticCorpus,
  ingestor: Evident['ingestor'],
  resume?: ResumePoint,
): Promise<Omit<BuiltStore, 'seed' | 'targetChunks' | 'builtAt'>> {
  const { log } = options;
  let documents = resume?.documents ?? 0;
  let chunks = resume?.chunks ?? 0;
  let restricted = resume?.restricted ?? 0;
  const startChunks = chunks;
  let ingestMs = 0;
  let ingestCpuUs = 0;
  const loadAtIngestStart = loadavg()[0] ?? 0;
  let lastTenth = { chunks: 0, ms: 0 };
  // A continued build logs its first batch, then every fifth of the target, as a new one does.
  let nextLog = chunks;
  await profiled(options.profileDir, `ingest-${options.chunks}`, async () => {
    while (chunks < options.chunks) {
      // Documents average ~10 chunks: shrink the batch near the target so the overshoot stays below one document.
      const batch = Math.max(1, Math.min(100, Math.floor((options.chunks - chunks) / 20)));
      const records = Array.from({ length: batch }, () => corpus.document(documents++).record);
      restricted += records.filter((record) => record.acl?.length).length;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const summary = await ingestor.ingestRecords(records);
      const elapsed = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      ingestCpuUs += cpu.user + cpu.system;
      if (summary.failed > 0) {
        throw new Error(`ingestion failed: ${summary.outcomes.find((o) => o.error)?.error?.message ?? 'unknown'}`);
      }
      ingestMs += elapsed;
      chunks += summary.chunks;
      if (chunks > options.chunks * 0.9)
        lastTenth = { chunks: lastTenth.chunks + summary.chunks, ms: lastTenth.ms + elapsed };
      if (chunks >= nextLog) {
        log(`  ingested ${chunks} chunks (${Math.round(((chunks - startChunks) / ingestMs) * 1000)} chunks/s)`);
        nextLog += Math.max(10_000, options.chunks / 5);
      }
    }
  });
  const afterIngest = memorySnapshot();
  const loadAtIngestEnd = loadavg()[0] ?? 0;
  return {
    documents,
    chunks,
    restricted,
    ingestMs,
    ingestCpuUs,
    lastTenth,
    loadAtIngestStart,
    loadAtIngestEnd,
    afterIngest,
    ...(resume ? { resumedFrom: resume } : {}),
  };
}

export async function measureSize(options: SizeOptions): Promise<SizeResult> {
  const { log } = options;
  const dbPath = join(options.workDir, 'bench.db');
  const backend: ConfigInput = options.databaseUrl ? { databaseUrl: options.databaseUrl } : {};
  // Before the store is opened: a reusable build, or nothing left of an unfinished one.
  const built = options.reuse ? readBuilt(options, dbPath) : undefined;
  const corpus = new SyntheticCorpus({ seed: options.seed });
  // A store an earlier run began and did not finish (no record) is continued where it stopped.
  const resume = options.reuse && !built ? resumePoint(dbPath, corpus) : undefined;
  if (built) log(`  reusing the store ingested ${built.builtAt} (${built.chunks} chunks)`);
  else if (resume) log(`  continuing an unfinished build: ${resume.documents} documents, ${resume.chunks} chunks in`);
  else if (options.reuse) removeStore(dbPath);
  const config = benchConfig(options.workDir, dbPath, backend);
  // The composition root the CLI uses, with the default config; and the same store under the full pipeline.
  const services = await createEvident(config);
  const { store, embedder, ingestor, search } = services;
  const full = await createEvident(benchConfig(options.workDir, dbPath, { ...FULL_HYBRID, ...backend }), { store });
  const reranker = full.reranker;
  const { channelDepth } = config.retrieval;

  const {
    documents,
    chunks,
    restricted,
    ingestMs,
    ingestCpuUs,
    lastTenth,
    loadAtIngestStart,
    loadAtIngestEnd,
    afterIngest,
    resumedFrom,
  } = built ?? (await ingestCorpus(options, corpus, ingestor, resume));
  if (options.reuse && !built) {
    const record: BuiltStore = {
      seed: options.seed,
      targetChunks: options.chunks,
      builtAt: new Date().toISOString(),
      documents,
      chunks,
      restricted,
      ingestMs,
      ingestCpuUs,
      lastTenth,
      loadAtIngestStart,
      loadAtIngestEnd,
      afterIngest,
      ...(resumedFrom ? { resumedFrom } : {}),
    };
    writeFileSync(join(options.workDir, INGEST_RECORD), `${JSON.stringify(record, null, 2)}\n`);
  }
  const visibleChunks = (await store.listDocuments(MEMBER)).reduce((sum, doc) => sum + doc.chunkCount, 0);
  const storeBytes = options.databaseUrl
    ? await postgresStoreBytes(options.databaseUrl)
    : ['', '-wal'].reduce((sum, suffix) => {
        try {
          return sum + statSync(dbPath + suffix).size;
        } catch {
          return sum;
        }
      }, 0);
  const storeMiB = storeBytes / (1024 * 1024);

  // ---- queries: measured ones and distinct warm-up ones, so no cache sees a measured query twice
  const queries = generateQueries(corpus, documents, options.queries, options.seed + 1);
  const warmQueries = generateQueries(corpus, documents, options.warmup, options.seed + 2);

  const indexStarted = performance.now();
  await store.vectorSearch((await embedder.embed(['warm'], 'query'))[0] as Float32Array, MEMBER, 1);
  const vectorIndexLoadMs = performance.now() - indexStarted;

  const stages: StageRow[] = [];
  const stage = async <T>(
    name: string,
    principal: StageRow['principal'],
    warmInputs: readonly T[],
    measured: readonly T[],
    fn: (input: T) => unknown,
    meanResults?: number,
  ): Promise<number[]> => {
    const samples = await timeEach(warmInputs, measured, fn);
    stages.push({
      stage: name,
      principal,
      latency: summarize(samples),
      ...(meanResults === undefined ? {} : { meanResults }),
    });
    log(`  ${name} (${principal}): p50 ${summarize(samples).p50.toFixed(2)} ms`);
    return samples;
  };
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

  // End to end first, on query strings alone, so the memory snapshot after it is the engine's, not the harness's.
  const defaultChannels = new Set<string>();
  let defaultReranked = false;
  const stageTimings = { defaultSearch: new Map<string, number[]>(), fullHybrid: new Map<string, number[]>() };
  const record = (into: Map<string, number[]>, timings: Record<string, number>) => {
    for (const [name, ms] of Object.entries(timings)) into.set(name, [...(into.get(name) ?? []), ms]);
  };
  const defaultSamples = await profiled(options.profileDir, `default-search-${options.chunks}`, () =>
    stage(SEARCH_ROWS.defaultSearch, 'member', warmQueries, queries, async (q) => {
      const trace = await search.search(q.text, MEMBER);
      for (const channel of Object.keys(trace.channels)) defaultChannels.add(channel);
      if (trace.timingsMs.rerank !== undefined) defaultReranked = true;
      record(stageTimings.defaultSearch, trace.timingsMs);
    }),
  );
  await stage(SEARCH_ROWS.hybridNoRerank, 'member', warmQueries, queries, (q) =>
    full.search.search(q.text, MEMBER, { rerank: false }),
  );
  const fullSamples = await profiled(options.profileDir, `full-hybrid-${options.chunks}`, () =>
    stage(SEARCH_ROWS.fullHybrid, 'member', warmQueries, queries, async (q) => {
      record(stageTimings.fullHybrid, (await full.search.search(q.text, MEMBER)).timingsMs);
    }),
  );
  // The ACL filter's cost: the same searches as an admin, whose queries carry no filter.
  await stage(SEARCH_ROWS.defaultSearch, 'admin', warmQueries, queries, (q) => search.search(q.text, ADMIN));
  await stage(SEARCH_ROWS.fullHybrid, 'admin', warmQueries, queries, (q) => full.search.search(q.text, ADMIN));
  const afterQueries = memorySnapshot();

  log('  preparing stage inputs');
  const inputs = await prepareInputs(full, queries);
  const warm = await prepareInputs(full, warmQueries);
  await stage('analyze query', 'member', warm, inputs, (i) => analyzeQuery(i.query.text));
  const keywordSamples = await stage(
    'keyword channel (BM25)',
    'member',
    warm,
    inputs,
    (i) => store.keywordSearch(i.terms, MEMBER, channelDepth),
    mean(inputs.map((i) => i.bm25.length)),
  );
  await stage('embed query', 'member', warm, inputs, (i) => embedder.embed([i.query.text], 'query'));
  await stage(
    'vector channel',
    'member',
    warm,
    inputs,
    (i) => store.vectorSearch(i.vector, MEMBER, channelDepth),
    mean(inputs.map((i) => i.vectorHits.length)),
  );
  await stage(
    'RRF fusion',
    'member',
    warm,
    inputs,
    (i) => reciprocalRankFusion({ bm25: i.bm25, vector: i.vectorHits }, { k: config.retrieval.rrfK }),
    mean(inputs.map((i) => i.fused.length)),
  );
  await stage(
    'fetch candidates',
    'member',
    warm,
    inputs,
    (i) =>
      store.getChunks(
        i.pool.map((c) => c.chunkId),
        MEMBER,
      ),
    mean(inputs.map((i) => i.chunks.size)),
  );
  await stage('dedupe', 'member', warm, inputs, (i) => dedupeCandidates(i.pool, (id) => i.chunks.get(id)?.text));
  if (reranker) {
    await stage(
      'rerank (offline)',
      'member',
      warm,
      inputs,
      (i) => reranker.rerank(i.query.text, i.rerankInput),
      mean(inputs.map((i) => i.rerankInput.length)),
    );
  }
  await stage('keyword channel (BM25)', 'admin', warm, inputs, (i) =>
    store.keywordSearch(i.terms, ADMIN, channelDepth),
  );
  await stage('vector channel', 'admin', warm, inputs, (i) => store.vectorSearch(i.vector, ADMIN, channelDepth));
  stages.sort((a, b) => stageOrder(a) - stageOrder(b));

  const byKind: SizeResult['byKind'] = {};
  for (const kind of new Set(queries.map((q) => q.kind))) {
    const at = queries.flatMap((q, i) => (q.kind === kind ? [i] : []));
    const pick = (samples: number[]) => summarize(at.map((i) => samples[i] as number));
    byKind[kind] = {
      n: at.length,
      defaultSearch: pick(defaultSamples),
      fullHybrid: pick(fullSamples),
      keyword: pick(keywordSamples),
    };
  }
  // The warm-up calls recorded timings too; keep the measured ones only.
  const timingSummary = (samples: Map<string, number[]>) =>
    Object.fromEntries([...samples].map(([name, list]) => [name, summarize(list.slice(-queries.length))]));
  const searchStageTimings = {
    defaultSearch: timingSummary(stageTimings.defaultSearch),
    fullHybrid: timingSummary(stageTimings.fullHybrid),
  };
  const afterStages = memorySnapshot();
  let vectorSnapshotMiB: number | undefined;
  try {
    vectorSnapshotMiB = statSync(join(dirname(dbPath), `.${basename(dbPath)}.vectors`)).size / (1024 * 1024);
  } catch {
    vectorSnapshotMiB = undefined;
  }
  const loadAtQueriesEnd = loadavg()[0] ?? 0;
  await services.close();

  // ---- a fresh process's first search, as `evident search` runs it: open, check the embedder, search
  const coldSearchMs: SizeResult['coldSearchMs'] = { defaultSearch: [], fullHybrid: [] };
  for (const [variant, flags] of [
    ['defaultSearch', {}],
    ['fullHybrid', FULL_HYBRID],
  ] as const) {
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const fresh = await createEvident(benchConfig(options.workDir, dbPath, { ...flags, ...backend }));
      await fresh.assertEmbedderMatches();
      await fresh.search.search((queries[run] as BenchQuery).text, MEMBER);
      coldSearchMs[variant].push(performance.now() - started);
      await fresh.close();
    }
  }

  return {
    targetChunks: options.chunks,
    chunks,
    documents,
    restrictedDocuments: restricted,
    visibleChunkShare: visibleChunks / chunks,
    ingest: {
      ms: ingestMs,
      // Over what this build ingested itself (all of it unless it continued an unfinished one).
      chunksPerSec: ((chunks - (resumedFrom?.chunks ?? 0)) / ingestMs) * 1000,
      documentsPerSec: ((documents - (resumedFrom?.documents ?? 0)) / ingestMs) * 1000,
      lastTenthChunksPerSec: (lastTenth.chunks / lastTenth.ms) * 1000,
      chunksPerCpuSec: (chunks - (resumedFrom?.chunks ?? 0)) / (ingestCpuUs / 1e6),
      ...(resumedFrom ? { resumedFromChunks: resumedFrom.chunks } : {}),
      ...(built ? { reusedFrom: built.builtAt } : {}),
    },
    load: { ingestStart: loadAtIngestStart, ingestEnd: loadAtIngestEnd, queriesEnd: loadAtQueriesEnd },
    storeMiB,
    ...(vectorSnapshotMiB === undefined ? {} : { vectorSnapshotMiB }),
    vectorIndexLoadMs,
    defaultSearch: { channels: [...defaultChannels].sort(), reranked: defaultReranked },
    stages,
    byKind,
    searchStageTimings,
    coldSearchMs,
    memory: { afterIngest, afterQueries, afterStages },
  };
}
