/** Markdown tables for the agent benchmark. */
import { summarize, type LatencySummary } from '../retrieval/stats.ts';
import { SCENARIOS, VARIANTS, type Sample, type SaverReplayResult, type VariantKey } from './measure.ts';
import type { Environment } from '../environment.ts';

export interface CheckpointSizes {
  threads: number;
  checkpoints: number;
  checkpointBytes: LatencySummary;
  writes: number;
  writeBytes: LatencySummary;
}

export interface AgentBenchReport {
  environment: Environment;
  settings: { runs: number; warmup: number; corpus: string; chunks: number; documents: number };
  rows: VariantRow[];
  scenarios: ScenarioRow[];
  nodes: NodeRow[];
  checkpointSizes: CheckpointSizes | undefined;
  replay: SaverReplayResult;
  paths: Record<string, string[]>;
  errors: string[];
}

export interface VariantRow {
  variant: VariantKey;
  label: string;
  wall: LatencySummary;
  nodeWork: LatencySummary;
  overhead: LatencySummary;
  overheadPerNode: LatencySummary;
  checkpointWrite: LatencySummary | undefined;
  checkpointRead: LatencySummary | undefined;
  /** Overhead minus the checkpoint reads and writes: LangGraph's own scheduling, channel and stream work. */
  runtimeWithoutCheckpointIo: LatencySummary | undefined;
  putsPerRun: number | undefined;
  putWritesPerRun: number | undefined;
}

export interface ScenarioRow {
  scenario: string;
  turn: number;
  nodes: number;
  byVariant: Partial<
    Record<
      VariantKey,
      { wall: LatencySummary; nodeWork: LatencySummary; overhead: LatencySummary; checkpointWrite?: LatencySummary }
    >
  >;
}

export interface NodeRow {
  node: string;
  inGraph: LatencySummary;
  direct: LatencySummary;
}

const writeMs = (sample: Sample): number => (sample.saver ? sample.saver.putMs + sample.saver.putWritesMs : 0);
const readMs = (sample: Sample): number => sample.saver?.getTupleMs ?? 0;
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

export function variantRows(samples: Sample[]): VariantRow[] {
  return (Object.keys(VARIANTS) as VariantKey[]).map((variant) => {
    const of = samples.filter((sample) => sample.variant === variant);
    const saved = of.every((sample) => sample.saver);
    return {
      variant,
      label: VARIANTS[variant],
      wall: summarize(of.map((s) => s.wallMs)),
      nodeWork: summarize(of.map((s) => s.nodeMs)),
      overhead: summarize(of.map((s) => s.wallMs - s.nodeMs)),
      overheadPerNode: summarize(of.map((s) => (s.wallMs - s.nodeMs) / s.nodes)),
      checkpointWrite: saved ? summarize(of.map(writeMs)) : undefined,
      checkpointRead: saved ? summarize(of.map(readMs)) : undefined,
      runtimeWithoutCheckpointIo: saved
        ? summarize(of.map((s) => s.wallMs - s.nodeMs - writeMs(s) - readMs(s)))
        : undefined,
      putsPerRun: saved ? mean(of.map((s) => s.saver?.puts ?? 0)) : undefined,
      putWritesPerRun: saved ? mean(of.map((s) => s.saver?.putWrites ?? 0)) : undefined,
    };
  });
}

export function scenarioRows(samples: Sample[]): ScenarioRow[] {
  return SCENARIOS.flatMap((scenario) =>
    scenario.turns.map((_, turn) => {
      const of = samples.filter((s) => s.scenario === scenario.name && s.turn === turn);
      const byVariant: ScenarioRow['byVariant'] = {};
      for (const variant of Object.keys(VARIANTS) as VariantKey[]) {
        const v = of.filter((s) => s.variant === variant);
        if (v.length === 0) continue;
        byVariant[variant] = {
          wall: summarize(v.map((s) => s.wallMs)),
          nodeWork: summarize(v.map((s) => s.nodeMs)),
          overhead: summarize(v.map((s) => s.wallMs - s.nodeMs)),
          ...(v.every((s) => s.saver) ? { checkpointWrite: summarize(v.map(writeMs)) } : {}),
        };
      }
      return { scenario: scenario.name, turn, nodes: of[0]?.nodes ?? 0, byVariant };
    }),
  );
}

export function nodeRows(samples: Sample[]): NodeRow[] {
  const names = [...new Set(samples.flatMap((s) => s.steps.map((step) => step.node)))];
  const durations = (variant: VariantKey, node: string) =>
    samples
      .filter((s) => s.variant === variant)
      .flatMap((s) => s.steps.filter((step) => step.node === node).map((step) => step.ms));
  return names.map((node) => ({
    node,
    inGraph: summarize(durations('agent', node)),
    direct: summarize(durations('bare', node)),
  }));
}

const ms = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value)
    ? '—'
    : value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value.toFixed(2);

function table(header: string[], rows: string[][], rightFrom = 1): string {
  const align = header.map((_, i) => (i >= rightFrom ? '---:' : '---'));
  return [header, align, ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

export function formatAgentReport(report: AgentBenchReport): string {
  const { environment: env, settings } = report;
  const row = (key: VariantKey) => report.rows.find((r) => r.variant === key);
  const out: string[] = [];
  out.push(`# Agent overhead benchmark — ${env.date}`, '');
  out.push(
    `Node ${env.node}, ${env.platform}, ${env.cpus} × ${env.nproc}, commit ${env.commit}. ` +
      `Load average ${env.loadBefore.toFixed(2)} before, ${env.loadAfter.toFixed(2)} after. Total ${env.totalSeconds.toFixed(0)} s.`,
  );
  out.push(`\`${env.command}\``, '');
  out.push(
    `Offline \`rag\` agent (no language model) over \`${settings.corpus}\` (${settings.documents} documents, ${settings.chunks} chunks) in a fresh ` +
      `SQLite store, default config, principal alice (group legal). ${settings.runs} measured iterations after ${settings.warmup} warm-up; ` +
      `each iteration runs every scenario turn once in every set-up, interleaved. ms, nearest-rank p50 / p95. ` +
      `Overhead = run wall time − Σ node durations.`,
    '',
  );

  out.push('## Overhead per run (all scenario turns pooled)', '');
  out.push(
    table(
      [
        'set-up',
        'runs',
        'wall p50',
        'wall p95',
        'node work p50',
        'node work p95',
        'overhead p50',
        'overhead p95',
        'overhead / node p50',
        'checkpoint writes p50',
        'checkpoint writes p95',
        'put + putWrites / run',
        'checkpoint reads p50',
        'runtime excl. checkpoint I/O p50',
      ],
      report.rows.map((r) => [
        r.label,
        String(r.wall.n),
        ms(r.wall.p50),
        ms(r.wall.p95),
        ms(r.nodeWork.p50),
        ms(r.nodeWork.p95),
        ms(r.overhead.p50),
        ms(r.overhead.p95),
        ms(r.overheadPerNode.p50),
        ms(r.checkpointWrite?.p50),
        ms(r.checkpointWrite?.p95),
        r.putsPerRun === undefined ? '—' : `${r.putsPerRun.toFixed(1)} + ${(r.putWritesPerRun ?? 0).toFixed(1)}`,
        ms(r.checkpointRead?.p50),
        ms(r.runtimeWithoutCheckpointIo?.p50),
      ]),
    ),
    '',
  );
  const agent = row('agent');
  const memory = row('memory');
  const none = row('none');
  const bare = row('bare');
  if (agent && memory && none && bare) {
    out.push(
      `- Graph runtime alone (no checkpointer − nodes only, wall p50): ${ms(none.wall.p50 - bare.wall.p50)} ms per run.`,
      `- Checkpointing in memory (MemorySaver − no checkpointer, overhead p50): ${ms(memory.overhead.p50 - none.overhead.p50)} ms per run.`,
      `- SQLite instead of memory (SqliteSaver − MemorySaver, overhead p50): ${ms(agent.overhead.p50 - memory.overhead.p50)} ms per run; ` +
        `timed inside the saver, SQLite writes take ${ms(agent.checkpointWrite?.p50)} ms p50 (${ms(agent.checkpointWrite?.p95)} p95) per run.`,
      `- Agent overhead per node executed (SQLite, p50): ${ms(agent.overheadPerNode.p50)} ms; agent wall − nodes-only wall (p50): ${ms(agent.wall.p50 - bare.wall.p50)} ms per run.`,
      '',
    );
  }

  out.push('## Per scenario turn (p50, p95 in brackets)', '');
  out.push(
    table(
      [
        'scenario',
        'turn',
        'nodes',
        'agent wall',
        'node work',
        'agent overhead',
        'SQLite writes',
        'MemorySaver overhead',
        'no-checkpointer overhead',
        'nodes-only wall',
      ],
      report.scenarios.map((s) => {
        const v = s.byVariant;
        const pair = (x: LatencySummary | undefined) => (x ? `${ms(x.p50)} (${ms(x.p95)})` : '—');
        return [
          s.scenario,
          String(s.turn + 1),
          String(s.nodes),
          pair(v.agent?.wall),
          pair(v.agent?.nodeWork),
          pair(v.agent?.overhead),
          pair(v.agent?.checkpointWrite),
          pair(v.memory?.overhead),
          pair(v.none?.overhead),
          pair(v.bare?.wall),
        ];
      }),
      2,
    ),
    '',
  );

  out.push('## Per node (ms)', '');
  out.push(
    table(
      ['node', 'n', 'in the agent p50', 'in the agent p95', 'called directly p50', 'called directly p95'],
      report.nodes.map((n) => [
        n.node,
        String(n.inGraph.n),
        ms(n.inGraph.p50),
        ms(n.inGraph.p95),
        ms(n.direct.p50),
        ms(n.direct.p95),
      ]),
    ),
    '',
  );

  const replay = report.replay;
  out.push('## SqliteSaver writes on their own (ms)', '');
  out.push(
    `The checkpoints and pending writes of one stored follow-up thread (${replay.checkpoints} checkpoints, ${replay.writeBatches} \`putWrites\` batches) ` +
      `put again under a new thread id through a SqliteSaver on the same file, one awaited call at a time, ${replay.perThread.n} times. ` +
      "Inside a run these writes overlap the next nodes (LangGraph's default `async` durability), so the saver-timed column above is wider than this.",
    '',
  );
  out.push(
    table(
      ['call', 'n', 'p50', 'p95', 'max'],
      [
        ['put (one checkpoint)', replay.put],
        ["putWrites (one task's writes)", replay.putWrites],
        [`whole thread (2 runs: ${replay.checkpoints} puts + ${replay.writeBatches} putWrites)`, replay.perThread],
      ].map(([label, s]) => {
        const summary = s as LatencySummary;
        return [label as string, String(summary.n), ms(summary.p50), ms(summary.p95), ms(summary.max)];
      }),
    ),
    '',
  );

  const sizes = report.checkpointSizes;
  if (sizes) {
    out.push('## Checkpoints in the store after the benchmark', '');
    out.push(
      `${sizes.threads} threads, ${sizes.checkpoints} checkpoints (bytes p50 ${sizes.checkpointBytes.p50}, p95 ${sizes.checkpointBytes.p95}, max ${sizes.checkpointBytes.max}), ` +
        `${sizes.writes} pending writes (bytes p50 ${sizes.writeBytes.p50}, p95 ${sizes.writeBytes.p95}, max ${sizes.writeBytes.max}).`,
      '',
    );
  }
  if (report.errors.length > 0) out.push('## Errors', '', ...report.errors.map((e) => `- ${e}`), '');
  return out.join('\n');
}
