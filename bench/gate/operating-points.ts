/**
 * The evidence gate's operating point, chosen honestly (issue 25: "where you fit, report the leave-one-dataset-out
 * estimate beside the in-sample one"). The gate has two fitted thresholds (`agents.evidenceGateThresholds`): the share
 * of the asked attribute a sentence must state, and how near a rival value may come. Every dev set is run offline by
 * `rag` at each point of a grid; a point's cost on a set is (2 × wrong + false refusals) / cases — a wrong answer costs
 * twice a refusal of an answerable question. For each set, the point chosen on the *other* sets (leave one dataset out)
 * is reported beside the point best on the set itself (in-sample) and the default.
 *
 *   npm run bench:operating-point -- [--only rgb-positive,paper-qa,…] [--limit 40] [--out points.json]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { withEvident } from '../../src/cli/context.ts';
import { withScratchStore } from '../../src/cli/scratch-store.ts';
import { readCases } from '../../src/eval/cases/read-cases.ts';
import { readUsers } from '../../src/eval/cases/read-users.ts';
import { runEval } from '../../src/eval/run/run-eval.ts';
import { formatTable } from '../../src/format/format-table.ts';
import { DEFAULT_GATE_THRESHOLDS, type GateThresholds } from '../../src/agent/core/evidence-gate/evidence-gate.ts';
import { describeEnvironment } from '../environment.ts';
import { DEV_SETS, prepareDevSet, type DevSet } from '../dev-sets.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../..');
const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
    shared: { type: 'string', default: resolve(repo, '../shared/datasets') },
  },
  strict: true,
});
const log = (text: string): void => void process.stderr.write(`${text}\n`);
const limit = flags.limit === undefined ? undefined : Number(flags.limit);
if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0)) {
  log(`--limit must be a positive integer, got ${JSON.stringify(flags.limit)}.`);
  process.exit(2);
}
const only = flags.only?.split(',').map((name) => name.trim());
const unknown = (only ?? []).filter((name) => !(DEV_SETS as readonly string[]).includes(name));
if (unknown.length) {
  log(`--only: no set named ${unknown.join(', ')}; the sets are ${DEV_SETS.join(', ')}.`);
  process.exit(2);
}

const GRID: GateThresholds[] = [0.15, 0.25, 0.35, 0.45].flatMap((attribute) =>
  [0.75, 0.85, 0.95].map((ambiguity) => ({ attribute, ambiguity })),
);
const WRONG_COST = 2;
const label = (point: GateThresholds): string => `${point.attribute}/${point.ambiguity}`;

interface Measured {
  set: DevSet;
  point: GateThresholds;
  cases: number;
  right: number;
  wrong: number;
  falseRefusals: number;
  cost: number;
}

async function measureSet(set: DevSet, work: string): Promise<Measured[] | string> {
  const prepared = await prepareDevSet(set, work, { shared: resolve(flags.shared), ...(limit ? { limit } : {}) });
  if ('skip' in prepared) return prepared.skip;
  const cases = await readCases(prepared.casesFile);
  const users = await readUsers(prepared.users);
  const out: Measured[] = [];
  await withScratchStore({}, `evident-bench-points-${set}-`, async (scratch) => {
    for (const point of GRID) {
      const config = join(work, `${set}-${label(point).replace('/', '-')}.json`);
      writeFileSync(config, JSON.stringify({ agents: { evidenceGate: 'enforce', evidenceGateThresholds: point } }));
      // One store per set: the corpus is ingested at the first point and found unchanged at the others.
      const report = await withEvident({ ...scratch, config }, {}, (evident) =>
        runEval(evident, { cases, casesFile: prepared.casesFile, corpus: prepared.corpus, users, agent: 'rag' }),
      );
      const selective = report.summary.rag?.selective;
      if (!selective) throw new Error(`${set}: the report has no selective summary for rag`);
      const total = selective.cases + selective.not_graded;
      const cost = (WRONG_COST * selective.wrong + selective.false_refusals) / Math.max(1, total);
      out.push({
        set,
        point,
        cases: total,
        right: selective.right,
        wrong: selective.wrong,
        falseRefusals: selective.false_refusals,
        cost,
      });
      log(`${set} ${label(point)}: right ${selective.right}, wrong ${selective.wrong}, cost ${cost.toFixed(3)}`);
    }
  });
  return out;
}

/** The grid point of least summed cost over the given sets (ties: the default, then the stricter). */
function bestPoint(rows: readonly Measured[], sets: readonly DevSet[]): GateThresholds {
  const costOf = (point: GateThresholds): number =>
    rows
      .filter((row) => sets.includes(row.set) && label(row.point) === label(point))
      .reduce((sum, row) => sum + row.cost, 0);
  const isDefault = (point: GateThresholds): boolean => label(point) === label(DEFAULT_GATE_THRESHOLDS);
  return GRID.reduce((pick, point) => {
    const delta = costOf(point) - costOf(pick);
    return delta < -1e-9 || (Math.abs(delta) <= 1e-9 && isDefault(point)) ? point : pick;
  });
}

const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const work = mkdtempSync(join(tmpdir(), 'evident-bench-points-'));
const rows: Measured[] = [];
const skipped: string[] = [];
try {
  for (const set of DEV_SETS.filter((name) => !only || only.includes(name))) {
    const measured = await measureSet(set, work);
    if (typeof measured === 'string') skipped.push(`${set}: skipped (${measured})`);
    else rows.push(...measured);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const measuredSets = [...new Set(rows.map((row) => row.set))];
const at = (set: DevSet, point: GateThresholds): Measured =>
  rows.find((row) => row.set === set && label(row.point) === label(point)) as Measured;
const cell = (row: Measured): string => `${row.right}/${row.wrong}/${row.falseRefusals} (${row.cost.toFixed(3)})`;
const table = measuredSets.map((set) => {
  const inSample = bestPoint(rows, [set]);
  const heldOut = bestPoint(
    rows,
    measuredSets.filter((other) => other !== set),
  );
  return [
    set,
    cell(at(set, DEFAULT_GATE_THRESHOLDS)),
    `${label(inSample)}: ${cell(at(set, inSample))}`,
    `${label(heldOut)}: ${cell(at(set, heldOut))}`,
  ];
});
const environment = describeEnvironment('bench/gate/operating-points.ts', started, loadBefore);
process.stdout.write(
  `\nEvidence gate operating points (rag, offline) — commit ${environment.commit}, load ${environment.loadBefore.toFixed(2)} → ` +
    `${environment.loadAfter.toFixed(2)} (${environment.nproc} CPUs), ${environment.totalSeconds.toFixed(0)} s` +
    `${limit ? `, --limit ${limit}` : ''}; grid attribute × ambiguity = ${GRID.map(label).join(', ')}\n` +
    `cells: right/wrong/false refusals (cost = (${WRONG_COST}·wrong + false refusals) / cases)\n` +
    skipped.map((line) => `${line}\n`).join('') +
    `\n${formatTable(
      [
        'set',
        `default ${label(DEFAULT_GATE_THRESHOLDS)}`,
        'in-sample best',
        'leave-one-dataset-out (chosen on the others)',
      ],
      table,
    )}\n` +
    `pooled best over all sets: ${label(bestPoint(rows, measuredSets))}\n`,
);
if (flags.out) writeFileSync(flags.out, `${JSON.stringify({ environment, limit: limit ?? null, rows }, null, 2)}\n`);
