/** Markdown tables for the retrieval benchmark's results. */
import type { PdfResult } from './measure-pdf.ts';
import { SEARCH_ROWS, type SizeResult, type StageRow } from './measure-size.ts';
import type { Environment } from '../environment.ts';

export interface Targets {
  hybridP50Ms: number;
  hybridAtChunks: number;
  ingestChunksPerSec: number;
}

export interface BenchReport {
  environment: Environment;
  settings: {
    backend: 'sqlite' | 'postgres';
    sizes: number[];
    queries: number;
    warmup: number;
    seed: number;
    pdf: string | undefined;
  };
  targets: Targets;
  sizes: SizeResult[];
  pdf: PdfResult | undefined;
  errors: string[];
}

const ms = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value)
    ? '—'
    : value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value.toFixed(2);
const int = (value: number): string => Math.round(value).toLocaleString('en-US');
const kChunks = (n: number): string => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

function table(header: string[], rows: string[][], rightFrom = 1): string {
  const align = header.map((_, i) => (i >= rightFrom ? '---:' : '---'));
  return [header, align, ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

const memberRow = (size: SizeResult, stage: string): StageRow | undefined =>
  size.stages.find((row) => row.stage === stage && row.principal === 'member');

const describeDefault = (size: SizeResult): string =>
  `${size.defaultSearch.channels.join(' + ') || 'no channel'}${size.defaultSearch.reranked ? ' + rerank' : ', no rerank'}`;

export function targetLines(report: BenchReport): string[] {
  const { targets } = report;
  const lines: string[] = [];
  const at = report.sizes.find((size) => size.targetChunks === targets.hybridAtChunks);
  const label = `p50 ≤ ${targets.hybridP50Ms} ms at ${kChunks(targets.hybridAtChunks)} chunks`;
  if (!at) lines.push(`- search ${label}: not measured (size not run)`);
  else {
    for (const stage of [SEARCH_ROWS.defaultSearch, SEARCH_ROWS.hybridNoRerank, SEARCH_ROWS.fullHybrid]) {
      const p50 = memberRow(at, stage)?.latency.p50;
      if (p50 === undefined) continue;
      const what = stage === SEARCH_ROWS.defaultSearch ? `${stage} [${describeDefault(at)}]` : stage;
      lines.push(`- ${what} ${label}: **${p50 <= targets.hybridP50Ms ? 'met' : 'MISSED'}** (${ms(p50)} ms)`);
    }
  }
  for (const size of report.sizes) {
    const rate = size.ingest.chunksPerSec;
    lines.push(
      `- ingestion ≥ ${int(targets.ingestChunksPerSec)} chunks/s at ${kChunks(size.chunks)}: **${rate >= targets.ingestChunksPerSec ? 'met' : 'MISSED'}** ` +
        `(${int(rate)} chunks/s wall clock; ${int(size.ingest.chunksPerCpuSec)} per CPU-second; load average ${size.load.ingestStart.toFixed(1)} → ${size.load.ingestEnd.toFixed(1)})`,
    );
  }
  return lines;
}

export function formatReport(report: BenchReport): string {
  const { environment: env, sizes, pdf } = report;
  const out: string[] = [];
  out.push(`# Retrieval benchmark (${report.settings.backend} store) — ${env.date}`);
  out.push('');
  out.push(
    `Node ${env.node}, ${env.platform}, ${env.cpus} × ${env.nproc}, ${env.memoryGiB} GiB RAM, commit ${env.commit}. ` +
      `Load average ${env.loadBefore.toFixed(2)} before, ${env.loadAfter.toFixed(2)} after. Total ${env.totalSeconds.toFixed(0)} s.`,
  );
  out.push(`\`${env.command}\``);
  out.push('');
  out.push(
    `Offline embedder (no model weights), channel depth 100, rerank depth 50, top 5. The default config resolved to ` +
      `[${sizes[0] ? describeDefault(sizes[0]) : '—'}]; the full hybrid rows force both channels and the offline reranker. ` +
      `${report.settings.queries} queries per row after ${report.settings.warmup} distinct warm-up queries, one at a time, ` +
      'nearest-rank p50/p95 in ms. Principal: a member of groups engineering and support (ACL filter on); admin rows for comparison.',
  );
  out.push('');

  out.push('## Targets');
  out.push('');
  out.push(...targetLines(report));
  out.push('');

  if (sizes.length > 0) {
    out.push('## Ingestion (synthetic text through `Ingestor.ingestRecords`)');
    out.push('');
    out.push(
      table(
        [
          'chunks',
          'documents',
          'restricted docs',
          'member sees',
          'ingest s',
          'chunks/s',
          'docs/s',
          'last 10% chunks/s',
          'chunks per CPU-s',
          'load avg',
          'store MiB',
          'peak RSS MiB',
          'heap MiB',
        ],
        sizes.map((s) => [
          int(s.chunks),
          int(s.documents),
          `${int(s.restrictedDocuments)} (${((100 * s.restrictedDocuments) / s.documents).toFixed(0)}%)`,
          `${(100 * s.visibleChunkShare).toFixed(0)}% of chunks`,
          `${(s.ingest.ms / 1000).toFixed(1)}${s.ingest.resumedFromChunks ? ` (continued from ${int(s.ingest.resumedFromChunks)} chunks)` : ''}${s.ingest.reusedFrom ? ` (built ${s.ingest.reusedFrom.slice(0, 16).replace('T', ' ')} UTC, reused)` : ''}`,
          int(s.ingest.chunksPerSec),
          int(s.ingest.documentsPerSec),
          int(s.ingest.lastTenthChunksPerSec),
          int(s.ingest.chunksPerCpuSec),
          `${s.load.ingestStart.toFixed(1)} → ${s.load.ingestEnd.toFixed(1)}`,
          s.storeMiB.toFixed(0),
          s.memory.afterIngest.maxRssMiB.toFixed(0),
          s.memory.afterIngest.heapUsedMiB.toFixed(0),
        ]),
      ),
    );
    out.push('');

    out.push('## Query latency (ms)');
    out.push('');
    const keys = (sizes[0] as SizeResult).stages.map((row) => `${row.stage}\u0000${row.principal}`);
    out.push(
      table(
        [
          'stage',
          'principal',
          ...sizes.flatMap((s) => [`${kChunks(s.chunks)} p50`, `${kChunks(s.chunks)} p95`]),
          'results (mean, largest size)',
        ],
        keys.map((key) => {
          const [stage, principal] = key.split('\u0000') as [string, string];
          const cells = sizes.flatMap((s) => {
            const row = s.stages.find((r) => r.stage === stage && r.principal === principal);
            return [ms(row?.latency.p50), ms(row?.latency.p95)];
          });
          const last = sizes.at(-1)?.stages.find((r) => r.stage === stage && r.principal === principal);
          const bold =
            principal === 'member' && (stage === SEARCH_ROWS.defaultSearch || stage === SEARCH_ROWS.fullHybrid);
          return [
            bold ? `**${stage}**` : stage,
            principal,
            ...cells.map((c) => (bold ? `**${c}**` : c)),
            last?.meanResults === undefined ? '' : last.meanResults.toFixed(0),
          ];
        }),
        2,
      ),
    );
    out.push('');

    out.push('### Inside the searches (the `timingsMs` each search reports, p50 / p95)');
    out.push('');
    const variants = [
      ['default', (size: SizeResult) => size.searchStageTimings.defaultSearch],
      ['full hybrid', (size: SizeResult) => size.searchStageTimings.fullHybrid],
    ] as const;
    const stageNames = [
      ...new Set(
        sizes.flatMap((s) => [
          ...Object.keys(s.searchStageTimings.fullHybrid),
          ...Object.keys(s.searchStageTimings.defaultSearch),
        ]),
      ),
    ];
    out.push(
      table(
        ['stage', ...sizes.flatMap((s) => variants.map(([name]) => `${kChunks(s.chunks)} ${name}`))],
        stageNames.map((name) => [
          name,
          ...sizes.flatMap((s) =>
            variants.map(([, timings]) => {
              const t = timings(s)[name];
              return t ? `${ms(t.p50)} / ${ms(t.p95)}` : '—';
            }),
          ),
        ]),
      ),
    );
    out.push('');
    out.push(
      '"vector" includes embedding the query. "total" minus the named stages is the untimed work between them: query ' +
        'analysis, fusion, dedupe, building results.',
    );
    out.push('');

    out.push('### By query kind (member, p50 / p95)');
    out.push('');
    const kinds = [...new Set(sizes.flatMap((s) => Object.keys(s.byKind)))] as (keyof SizeResult['byKind'])[];
    out.push(
      table(
        [
          'query kind',
          ...sizes.flatMap((s) => [
            `${kChunks(s.chunks)} n`,
            `${kChunks(s.chunks)} default search`,
            `${kChunks(s.chunks)} full hybrid`,
            `${kChunks(s.chunks)} keyword channel`,
          ]),
        ],
        kinds.map((kind) => [
          kind,
          ...sizes.flatMap((s) => {
            const k = s.byKind[kind];
            return k
              ? [
                  String(k.n),
                  `${ms(k.defaultSearch.p50)} / ${ms(k.defaultSearch.p95)}`,
                  `${ms(k.fullHybrid.p50)} / ${ms(k.fullHybrid.p95)}`,
                  `${ms(k.keyword.p50)} / ${ms(k.keyword.p95)}`,
                ]
              : ['0', '—', '—', '—'];
          }),
        ]),
      ),
    );
    out.push('');

    out.push('### One-off costs and memory');
    out.push('');
    out.push(
      table(
        [
          'chunks',
          'vector index load ms',
          'vector snapshot MiB',
          'cold default search ms (3 runs)',
          'cold full hybrid ms (3 runs)',
          'RSS MiB',
          'peak RSS MiB',
          'heap used MiB',
          'external MiB',
        ],
        sizes.map((s) => [
          int(s.chunks),
          ms(s.vectorIndexLoadMs),
          s.vectorSnapshotMiB === undefined ? '—' : s.vectorSnapshotMiB.toFixed(0),
          s.coldSearchMs.defaultSearch.map(ms).join(', '),
          s.coldSearchMs.fullHybrid.map(ms).join(', '),
          s.memory.afterQueries.rssMiB.toFixed(0),
          s.memory.afterQueries.maxRssMiB.toFixed(0),
          s.memory.afterQueries.heapUsedMiB.toFixed(0),
          s.memory.afterQueries.externalMiB.toFixed(0),
        ]),
      ),
    );
    out.push('');
    out.push(
      'Cold search: `createEvident` on the existing file + `assertEmbedderMatches` + one search, in a warm process with ' +
        'the file in the page cache: what `evident search` pays per invocation, minus Node/tsx start-up. The full ' +
        'hybrid one loads every vector first (vector index load). ' +
        'Memory is per size (each size runs in its own process); external includes the vector index (WebAssembly memory).',
    );
    out.push('');
  }

  if (pdf) {
    out.push('## PDF ingestion (`Ingestor.ingest([path])`, fresh store per run)');
    out.push('');
    out.push(
      table(
        [
          'file',
          'KiB',
          'pages',
          'chunks',
          'cold ms',
          'cold pages/s',
          'cold chunks/s',
          'warm p50 ms',
          'warm pages/s',
          'warm chunks/s',
          'text extraction p50 ms',
          'peak RSS MiB',
        ],
        [
          [
            pdf.file.split('/').at(-1) ?? pdf.file,
            int(pdf.bytes / 1024),
            String(pdf.pages),
            String(pdf.chunks),
            ms(pdf.cold.ms),
            pdf.cold.pagesPerSec.toFixed(1),
            int(pdf.cold.chunksPerSec),
            ms(pdf.warm.ms.p50),
            pdf.warm.pagesPerSec.toFixed(1),
            int(pdf.warm.chunksPerSec),
            ms(pdf.extractMs.p50),
            pdf.memory.maxRssMiB.toFixed(0),
          ],
        ],
      ),
    );
    out.push('');
  }

  if (report.errors.length > 0) {
    out.push('## Errors');
    out.push('');
    out.push(...report.errors.map((error) => `- ${error}`));
    out.push('');
  }
  return out.join('\n');
}
