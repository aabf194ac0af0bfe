/**
 * Issues 13's and 25's dev targets in one go, offline: converts the public dev sets (RGB zh negative and positive,
 * MTRAG-UN, MuSiQue, WikiTableQuestions) into a temporary folder, runs each through the eval runner in-process (the
 * code `evident eval run` uses, a scratch store per set), runs paper-qa (questions about the BERT paper, on a copy of
 * the PDF) and the sample set, and prints selective answering per set and agent (coverage, risk, right, wrong,
 * refused), then one table `issue | target | measured | met?`. Sets whose data is absent (no ../shared) are skipped
 * with a line saying so.
 *
 *   npm run bench:answer -- [--only rgb-negative,paper-qa,…] [--limit 20] [--out answer.json] [--shared ../shared/datasets]
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
import { createProgressReporter } from '../../src/eval/progress/progress-reporter.ts';
import { runEval, type EvalReport } from '../../src/eval/run/run-eval.ts';
import { SELECTIVE_HEADERS, selectiveRows } from '../../src/eval/report/render-eval-table.ts';
import { formatTable } from '../../src/format/format-table.ts';
import { describeEnvironment } from '../environment.ts';
import { gateConfigFile, prepareDevSet, type PreparedSet } from '../dev-sets.ts';
import {
  agentsOfSuite,
  outcomeOf,
  SUITES,
  TARGET_HEADERS,
  TARGETS,
  targetRows,
  type SuiteName,
  type TargetOutcome,
} from './targets.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../..');

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
    shared: { type: 'string', default: resolve(repo, '../shared/datasets') },
    gate: { type: 'string', default: 'enforce' },
  },
  strict: true,
});

const log = (text: string): void => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

function fail(message: string): never {
  log(message);
  process.exit(2);
}

const limit = flags.limit === undefined ? undefined : Number(flags.limit);
if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0))
  fail(`--limit must be a positive integer, got ${JSON.stringify(flags.limit)}.`);
const only = flags.only
  ?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const unknown = (only ?? []).filter((name) => !(SUITES as readonly string[]).includes(name));
if (unknown.length) fail(`--only: no set named ${unknown.join(', ')}; the sets are ${SUITES.join(', ')}.`);
if (flags.gate !== 'enforce' && flags.gate !== 'off')
  fail(`--gate must be enforce or off, got ${JSON.stringify(flags.gate)}.`);
/** The runs' config: the evidence gate as measured (`--gate enforce`, the default) or off, for the before figures. */
const gateConfig = gateConfigFile(mkdtempSync(join(tmpdir(), 'evident-bench-answer-config-')), flags.gate);
const suites = SUITES.filter((suite) => !only || only.includes(suite));
const shared = resolve(flags.shared);

const prepare = (suite: SuiteName, work: string): Promise<PreparedSet> =>
  prepareDevSet(suite, work, { shared, ...(limit ? { limit } : {}) });

/** Selective answering per set and agent: the eval report's selective row of each (coverage, risk, right, …). */
const selectiveBySet = (ran: typeof reports): string[][] =>
  Object.entries(ran).flatMap(([suite, report]) =>
    selectiveRows(report?.summary ?? {}).map(([agent, cells]) => [suite, agent, ...cells]),
  );

/** One suite through the eval runner, in a scratch store, with a progress line per case. */
async function runSuite(
  suite: SuiteName,
  input: { casesFile: string; corpus: string; users?: string },
): Promise<EvalReport> {
  const cases = await readCases(input.casesFile);
  const users = await readUsers(input.users);
  const progress = createProgressReporter(log, { ingestEvery: 250 });
  const agents = agentsOfSuite(suite);
  return withScratchStore({}, `evident-bench-answer-${suite}-`, (scratch) =>
    withEvident({ ...scratch, config: gateConfig }, {}, (evident) =>
      runEval(evident, {
        cases,
        casesFile: input.casesFile,
        corpus: input.corpus,
        users,
        agent: agents.join(','),
        onProgress: (p) => {
          if (p.phase === 'ingest') return progress.ingest(p.progress);
          // Every 25th run and the last, so a 300-run set stays a readable log.
          if (p.done % 25 !== 0 && p.done !== p.total) return;
          const tally = Object.entries(p.passedSoFar)
            .filter(([, t]) => t.done > 0)
            .map(([agent, t]) => `${agent} ${t.passed}/${t.done}`)
            .join(', ');
          progress.count(`${suite} runs`, p.done, p.total, `passed ${tally}`);
        },
      }),
    ),
  );
}

const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const work = mkdtempSync(join(tmpdir(), 'evident-bench-answer-'));
const outcomes: TargetOutcome[] = [];
const reports: Partial<Record<SuiteName, { meta: EvalReport['meta']; summary: EvalReport['summary'] }>> = {};
try {
  for (const suite of suites) {
    const prepared = await prepare(suite, work);
    const targets = TARGETS.filter((target) => target.suite === suite);
    if ('skip' in prepared) {
      log(`${suite}: skipped (${prepared.skip})`);
      outcomes.push(...targets.map((target) => outcomeOf(target, null, `skipped: ${prepared.skip}`)));
      continue;
    }
    log(`${suite}: running ${agentsOfSuite(suite).join(', ')} on ${prepared.casesFile}`);
    const report = await runSuite(suite, prepared);
    reports[suite] = { meta: report.meta, summary: report.summary };
    log(
      `${suite}: ${report.cases.length} runs in ${(report.meta.elapsed_ms / 1000).toFixed(1)} s (${report.meta.mode})`,
    );
    outcomes.push(...targets.map((target) => outcomeOf(target, report)));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const environment = describeEnvironment('bench/answer/run.ts', started, loadBefore);
const met = outcomes.filter((outcome) => outcome.met === true).length;
const measured = outcomes.filter((outcome) => outcome.met !== null).length;
process.stdout.write(
  '\nSelective answering (coverage: answered of the graded; risk: wrong of the answered; right: the gold as the one value given, of the cases with a gold value):\n' +
    formatTable(['set', ...SELECTIVE_HEADERS], selectiveBySet(reports)),
);
process.stdout.write(
  `\nDev targets of issues 13 and 25 (${environment.commit}${limit ? `, --limit ${limit}: not the targets' full sets` : ''}): ${met}/${measured} met` +
    (measured < outcomes.length ? `, ${outcomes.length - measured} not measured` : '') +
    ` in ${environment.totalSeconds.toFixed(0)} s\n\n` +
    formatTable(TARGET_HEADERS, targetRows(outcomes)),
);
if (flags.out) {
  writeFileSync(
    flags.out,
    `${JSON.stringify({ environment, limit: limit ?? null, targets: outcomes, suites: reports }, null, 2)}\n`,
  );
  log(`written to ${flags.out}`);
}
