/**
 * Issue 25's proof of the evidence gate with two fake chat models (src/testing/fake-answer-models.ts) behind the
 * repository's OpenAI-compatible fake server: an *overconfident* model that answers every question from its first
 * passage and never refuses, and an *honest* model that answers with the gold value from a passage that states it and
 * refuses otherwise. Each dev set (RGB zh negative and positive, MTRAG-UN, MuSiQue, WikiTableQuestions, paper-qa) is
 * converted as bench:answer converts it, ingested into a scratch store, and every case is run by each agent with each
 * model through the eval runner. The models record what they proposed; the runs say what was returned. Printed: one
 * row per set, model and agent, then the catch rate of the overconfident model's answers to unanswerable cases
 * (target ≥ 80%) and the veto rate of the honest model's answers (target ≤ 10%). Absent data is skipped with a line.
 *
 *   npm run bench:gate -- [--only rgb-negative,paper-qa,…] [--agents rag,controllable,react] [--limit 30]
 *                         [--out gate.json] [--shared ../shared/datasets]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { withEvident } from '../../src/cli/context.ts';
import { withScratchStore } from '../../src/cli/scratch-store.ts';
import { readCases, type LocatedCase } from '../../src/eval/cases/read-cases.ts';
import { readUsers } from '../../src/eval/cases/read-users.ts';
import { runEval } from '../../src/eval/run/run-eval.ts';
import { formatTable } from '../../src/format/format-table.ts';
import {
  honestModel,
  overconfidentModel,
  questionKey,
  type FakeAnswerModel,
  type Gold,
} from '../../src/testing/fake-answer-models.ts';
import { FakeLlmServer } from '../../src/testing/fake-llm-server.ts';
import { describeEnvironment } from '../environment.ts';
import { DEV_SETS, gateConfigFile, prepareDevSet, type DevSet, type PreparedSet } from '../dev-sets.ts';
import {
  CATCH_TARGET,
  percent,
  rightByContainment,
  TALLY_HEADERS,
  tally,
  tallyRows,
  totalsOf,
  VETO_TARGET,
  type CaseOutcome,
  type Rate,
} from './tally.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../../..');
/** The dev sets with gold the fake models answer from (the sample set is the project's own). */
const SETS = DEV_SETS.filter((set): set is Exclude<DevSet, 'sample'> => set !== 'sample');
type SetName = (typeof SETS)[number];
const AGENTS = ['rag', 'controllable', 'react'] as const;

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    agents: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
    shared: { type: 'string', default: resolve(repo, '../shared/datasets') },
    gate: { type: 'string', default: 'enforce' },
  },
  strict: true,
});
/** The runs' config: the evidence gate enforced (the measurement) or off (what the models propose, returned as is). */
let gateConfig: string;
try {
  gateConfig = gateConfigFile(mkdtempSync(join(tmpdir(), 'evident-bench-gate-config-')), flags.gate);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}

const log = (text: string): void => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

function fail(message: string): never {
  log(message);
  process.exit(2);
}

const list = (text: string | undefined): string[] | undefined =>
  text
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
const limit = flags.limit === undefined ? undefined : Number(flags.limit);
if (limit !== undefined && (!Number.isInteger(limit) || limit <= 0))
  fail(`--limit must be a positive integer, got ${JSON.stringify(flags.limit)}.`);
const only = list(flags.only);
const unknownSets = (only ?? []).filter((name) => !(SETS as readonly string[]).includes(name));
if (unknownSets.length) fail(`--only: no set named ${unknownSets.join(', ')}; the sets are ${SETS.join(', ')}.`);
const agents = list(flags.agents) ?? [...AGENTS];
const unknownAgents = agents.filter((name) => !(AGENTS as readonly string[]).includes(name));
if (unknownAgents.length) fail(`--agents: no agent named ${unknownAgents.join(', ')}; they are ${AGENTS.join(', ')}.`);
const sets = SETS.filter((set) => !only || only.includes(set));
const shared = resolve(flags.shared);

const prepare = (set: SetName, work: string): Promise<PreparedSet> =>
  prepareDevSet(set, work, { shared, ...(limit ? { limit } : {}) });

/** The honest model's gold, by question: the case's label, its gold values, and the documents that hold the answer. */
function goldOf(cases: readonly LocatedCase[]): { gold: Map<string, Gold>; clashes: number } {
  const gold = new Map<string, Gold>();
  let clashes = 0;
  for (const { evalCase } of cases) {
    const { expect } = evalCase;
    const docs = expect.relevant_docs ?? expect.cite_docs;
    const value: Gold = {
      answerable: expect.answerable ?? true,
      ...(expect.answer_contains ? { answers: expect.answer_contains } : {}),
      ...(docs ? { docs } : {}),
    };
    const key = questionKey(evalCase.question);
    const known = gold.get(key);
    if (known && JSON.stringify(known) !== JSON.stringify(value)) clashes++;
    if (!known) gold.set(key, value);
  }
  return { gold, clashes };
}

const server = new FakeLlmServer();
const LLM = { llm: 'openai:fake-answer-model', llmApiKey: 'fake-answer-key' } as const;

/** Every case of a set run by each agent with each fake model, on one scratch store; one outcome per run. */
async function runSet(
  set: SetName,
  input: { casesFile: string; corpus: string; users?: string },
): Promise<CaseOutcome[]> {
  const cases = await readCases(input.casesFile);
  const users = await readUsers(input.users);
  const { gold, clashes } = goldOf(cases);
  if (clashes) log(`${set}: ${clashes} question(s) asked twice with different gold; the honest model knows the first`);
  const models: FakeAnswerModel[] = [overconfidentModel(), honestModel(gold)];
  const byId = new Map(cases.map(({ evalCase }) => [evalCase.id, evalCase]));
  const outcomes: CaseOutcome[] = [];
  await withScratchStore({}, `evident-bench-gate-${set}-`, (scratch) =>
    withEvident({ ...scratch, config: gateConfig }, { ...LLM, llmBaseUrl: `${server.url}/v1` }, async (evident) => {
      for (const model of models) {
        server.respond = model.respond;
        for (const agent of agents) {
          model.clear();
          const began = performance.now();
          await runEval(evident, {
            cases,
            casesFile: input.casesFile,
            corpus: input.corpus,
            users,
            agent,
            onProgress: (progress) => {
              if (progress.phase !== 'case') return;
              const { result } = progress;
              const evalCase = byId.get(result.id);
              // The model's proposal for this case, read as soon as its run ends, then forgotten.
              const proposal = model.proposalFor(result.trace.question);
              const proposed = model.proposedAnswer(result.trace.question);
              model.clear();
              const returned = result.trace.answerable === true && result.trace.status !== 'failed';
              outcomes.push({
                set,
                model: model.name,
                agent,
                id: result.id,
                question: result.trace.question,
                answerable: evalCase?.expect.answerable,
                proposed,
                proposal: proposal?.answer ?? null,
                proposalRight: proposed
                  ? rightByContainment(proposal?.answer ?? null, evalCase?.expect.answer_contains)
                  : null,
                returned,
                refused: !returned && (result.trace.answerable === false || result.trace.status === 'refused'),
                status: result.trace.status,
                answer: result.trace.answer,
              });
            },
          });
          const mine = outcomes.filter((o) => o.model === model.name && o.agent === agent);
          log(
            `${set} ${model.name} ${agent}: ${mine.length} runs in ${((performance.now() - began) / 1000).toFixed(1)} s, ` +
              `proposed ${mine.filter((o) => o.proposed).length}, returned ${mine.filter((o) => o.returned).length}`,
          );
        }
        if (model.unknownSteps.size)
          log(`${set} ${model.name}: asked unknown steps ${[...model.unknownSteps].join(', ')}`);
      }
    }),
  );
  return outcomes;
}

const started = performance.now();
const loadBefore = loadavg()[0] ?? 0;
const work = mkdtempSync(join(tmpdir(), 'evident-bench-gate-'));
const outcomes: CaseOutcome[] = [];
const skipped: { set: string; reason: string }[] = [];
await server.start();
try {
  for (const set of sets) {
    const prepared = await prepare(set, work);
    if ('skip' in prepared) {
      log(`${set}: skipped (${prepared.skip})`);
      skipped.push({ set, reason: prepared.skip });
      continue;
    }
    log(`${set}: running ${agents.join(', ')} with the overconfident and the honest model on ${prepared.casesFile}`);
    outcomes.push(...(await runSet(set, prepared)));
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

const environment = describeEnvironment('bench/gate/run.ts', started, loadBefore);
const tallies = tally(outcomes);
const totals = totalsOf(tallies);
const perAgent = Object.fromEntries(agents.map((agent) => [agent, totalsOf(tallies.filter((t) => t.agent === agent))]));
const met = (r: Rate, ok: (rate: number) => boolean): string =>
  r.rate === null ? 'n/a' : ok(r.rate) ? 'met' : 'not met';
const line = (label: string, r: Rate, target: string, verdict: string) => [
  label,
  `${r.hit}/${r.of}`,
  percent(r),
  target,
  verdict,
];
const summaryRows = [
  line(
    'catch: overconfident answers to unanswerable cases refused',
    totals.catchUnanswerable,
    `≥ ${CATCH_TARGET * 100}%`,
    met(totals.catchUnanswerable, (r) => r >= CATCH_TARGET),
  ),
  line('catch: every unsupported overconfident answer refused', totals.catchUnsupported, '(shown)', ''),
  line(
    'veto: honest answers refused',
    totals.veto,
    `≤ ${VETO_TARGET * 100}%`,
    met(totals.veto, (r) => r <= VETO_TARGET),
  ),
  ...agents.flatMap((agent) => {
    const t = perAgent[agent] as ReturnType<typeof totalsOf>;
    return [
      line(`  ${agent}: catch (unanswerable)`, t.catchUnanswerable, '', ''),
      line(`  ${agent}: veto`, t.veto, '', ''),
    ];
  }),
];
process.stdout.write(
  `\nIssue 25 evidence gate with fake models — commit ${environment.commit}, load ${environment.loadBefore.toFixed(2)} → ` +
    `${environment.loadAfter.toFixed(2)} (${environment.nproc} CPUs), ${environment.totalSeconds.toFixed(0)} s` +
    `${limit ? `, --limit ${limit}` : ''}\n` +
    skipped.map(({ set, reason }) => `${set}: skipped (${reason})\n`).join('') +
    `\n${formatTable(TALLY_HEADERS, tallyRows(tallies))}\n` +
    formatTable(['total', 'count', 'rate', 'target', 'met?'], summaryRows),
);
if (flags.out) {
  writeFileSync(
    flags.out,
    `${JSON.stringify({ environment, limit: limit ?? null, agents, skipped, totals, per_agent: perAgent, tallies, cases: outcomes }, null, 2)}\n`,
  );
  log(`written to ${flags.out}`);
}
