/** The Markdown report of the server load benchmark. */
import type { Environment } from '../environment.ts';
import { summarize, type LatencySummary } from '../retrieval/stats.ts';
import type { ServerUsage } from './bench-server.ts';
import type { RunSample } from './load.ts';

export interface ServerBenchReport {
  environment: Environment;
  settings: {
    runs: number;
    warmup: number;
    repeat: number;
    workers: number;
    users: number;
    streamModes: readonly string[];
  };
  firstEvent: LatencySummary;
  completion: LatencySummary;
  serverRun: LatencySummary;
  throughput: Throughput;
  server: ServerUsage | undefined;
  failures: { user: string; question: string; problem: string }[];
  samples: RunSample[];
}

/** One measured batch: its wall time (first request to last `end`), the server's CPU time over it, its events. */
export interface BatchFigures {
  wallMs: number;
  serverCpuMs: number;
  events: number;
}

/** Throughput of the median batch (by runs per second), and the server's CPU per run over every batch. */
export interface Throughput {
  wallSeconds: number;
  runsPerSecond: number;
  eventsPerSecond: number;
  events: number;
  /** Every batch's runs per second, in order. */
  batchRunsPerSecond: number[];
  /** Server CPU time (user + system) per run, all batches together: what the machine's load skews least. */
  serverCpuMsPerRun: number;
}

export function throughputOf(runs: number, batches: readonly BatchFigures[]): Throughput {
  const rates = batches.map((batch) => runs / (batch.wallMs / 1000));
  const median = [...batches].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((batches.length - 1) / 2)] as BatchFigures;
  const cpuMs = batches.reduce((total, batch) => total + batch.serverCpuMs, 0);
  return {
    wallSeconds: median.wallMs / 1000,
    runsPerSecond: runs / (median.wallMs / 1000),
    eventsPerSecond: median.events / (median.wallMs / 1000),
    events: median.events,
    batchRunsPerSecond: rates,
    serverCpuMsPerRun: cpuMs / (runs * batches.length),
  };
}

const finite = (values: (number | undefined)[]) =>
  values.filter((value): value is number => value !== undefined && Number.isFinite(value));

export function summarizeLoad(
  samples: RunSample[],
): Pick<ServerBenchReport, 'firstEvent' | 'completion' | 'serverRun' | 'failures'> {
  return {
    firstEvent: summarize(finite(samples.map((sample) => sample.firstEventMs))),
    completion: summarize(finite(samples.map((sample) => sample.completeMs))),
    serverRun: summarize(finite(samples.map((sample) => sample.serverMs))),
    failures: samples.flatMap(({ user, question, problem }) => (problem ? [{ user, question, problem }] : [])),
  };
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');
const row = (label: string, summary: LatencySummary) =>
  `| ${label} | ${summary.n} | ${ms(summary.p50)} | ${ms(summary.p95)} | ${ms(summary.max)} | ${ms(summary.mean)} |`;

export function formatServerReport(report: ServerBenchReport): string {
  const { environment: env, settings, throughput, server } = report;
  const out = [
    `# Server load benchmark — ${env.date}`,
    '',
    `Node ${env.node}, ${env.platform}, ${env.cpus} × ${env.nproc}, ${env.memoryGiB} GiB RAM, commit ${env.commit}. ` +
      `Load average ${env.loadBefore.toFixed(2)} before, ${env.loadAfter.toFixed(2)} after. Total ${env.totalSeconds.toFixed(0)} s.`,
    `\`${env.command}\``,
    '',
    `${settings.runs} streamed runs started at once${settings.repeat > 1 ? `, ${settings.repeat} batches one after the other` : ''} (after ${settings.warmup} warm-up runs), each on a new thread of one of ${settings.users} users, ` +
      `offline \`rag\` agent, sample corpus, SQLite; stream modes ${settings.streamModes.join('+')}; ` +
      `${settings.workers > 1 ? `the server as ${settings.workers} worker processes on one port (node:cluster) over one SQLite file` : 'the server in its own process'} on 127.0.0.1.`,
    '',
    '| ms | n | p50 | p95 | max | mean |',
    '|---|---:|---:|---:|---:|---:|',
    row('time to first event (request → `metadata`)', report.firstEvent),
    row('time to completion (request → `end`)', report.completion),
    row('run duration recorded by the server', report.serverRun),
    '',
    `Throughput: ${throughput.runsPerSecond.toFixed(1)} runs/s, ${throughput.eventsPerSecond.toFixed(0)} events/s ` +
      `(${settings.runs} runs, ${throughput.events} events in ${throughput.wallSeconds.toFixed(2)} s from the first request to the last \`end\`` +
      `${settings.repeat > 1 ? `; the median batch — every batch: ${throughput.batchRunsPerSecond.map((rate) => rate.toFixed(1)).join(', ')} runs/s` : ''}).`,
    `Server CPU during the measured runs: ${throughput.serverCpuMsPerRun.toFixed(1)} ms per run (user + system).`,
  ];
  if (server)
    out.push(
      `Server process${settings.workers > 1 ? `es (${settings.workers} workers and their primary, summed)` : ''}: max RSS ${server.maxRssMiB} MiB, CPU ${server.cpuUserMs} ms user + ${server.cpuSystemMs} ms system over its whole life (start-up and ingestion included).`,
    );
  out.push(
    '',
    report.failures.length
      ? `**${report.failures.length} run(s) failed:**`
      : 'Every run streamed whole and ended `success`.',
  );
  for (const failure of report.failures.slice(0, 20))
    out.push(`- ${failure.user}: ${failure.question} — ${failure.problem}`);
  return out.join('\n');
}
