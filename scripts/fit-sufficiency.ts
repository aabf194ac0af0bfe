/**
 * Fits the offline sufficiency model (src/agent/core/offline/sufficiency-weights.json) on the dev data:
 *
 *   node --import tsx scripts/fit-sufficiency.ts [--work /tmp/fit-sufficiency] [--retrieve] [--limit N]
 *
 * 1. Retrieval (with --retrieve, or when the work folder has none yet): RGB zh dev (negative and positive),
 *    MTRAG-UN dev and the project's sample set are asked of the offline `rag` agent as `evident eval run` asks
 *    them; its needs and evidence per case are kept in the work folder (dataset text: never in the repository).
 * 2. Features: the reader (src/agent/core/offline/reader.ts) measures each need; a case's row is its best need's
 *    (the judge answers when its best need is sufficient). The rows, numbers only, are written to
 *    scripts/fit-sufficiency-rows.csv.
 * 3. Fit: L2-regularised logistic regression on standardised features, each dataset (RGB, MTRAG-UN, sample set)
 *    weighted equally, by gradient descent. 5-fold cross-validated figures (folds stratified by set) are printed
 *    and stored with the weights, since held-out data of the same kinds is what the model is judged on.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { read } from '../src/agent/core/offline/reader.ts';
import { FEATURE_NAMES, featuresOf, featureVector } from '../src/agent/core/offline/sufficiency-features.ts';
import { WEIGHTS_URL, type SufficiencyWeights } from '../src/agent/core/offline/sufficiency-model.ts';
import { SUFFICIENT_AT } from '../src/agent/core/sufficiency.ts';
import { cachePath, mtragSets, readCache, retrieveSet, rgbSets, sampleSet, type DevSet, type RetrievedCase } from './fit-sufficiency-retrieve.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../..');
const datasets = resolve(repo, '../shared/datasets');

const { values: flags } = parseArgs({
  options: {
    work: { type: 'string', default: '/tmp/fit-sufficiency' },
    retrieve: { type: 'boolean', default: false },
    limit: { type: 'string' },
    lambda: { type: 'string', default: '0.01' },
    'dry-run': { type: 'boolean', default: false },
    /** Comma-separated set names to fit on (for looking at one dataset alone; implies --dry-run). */
    only: { type: 'string' },
  },
  strict: true,
});
const work = resolve(flags.work);
mkdirSync(work, { recursive: true });
const limit = flags.limit ? Number(flags.limit) : undefined;
const LAMBDA = Number(flags.lambda);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Which dataset a set belongs to: each dataset weighs the same in the fit. */
const datasetOf = (set: string): string => set.replace(/-(?:negative|positive)$/, '');

async function retrieved(): Promise<RetrievedCase[]> {
  const sets: (() => Promise<DevSet[]>)[] = [
    () => rgbSets(join(datasets, 'rgb-zh/zh_refine_dev.jsonl'), work),
    () => mtragSets(join(datasets, 'mtrag-un/reference_dev.jsonl'), work),
    async () => [sampleSet(repo)],
  ];
  const out: RetrievedCase[] = [];
  for (const make of sets) {
    for (const set of await make()) {
      let cases = flags.retrieve ? undefined : readCache(work, set.name);
      if (!cases) {
        log(`retrieving ${set.name}: ${set.cases.length} cases`);
        const started = performance.now();
        cases = await retrieveSet(set, work, limit);
        writeFileSync(cachePath(work, set.name), JSON.stringify(cases));
        log(`  ${Math.round(performance.now() - started)} ms`);
      }
      out.push(...cases);
    }
  }
  return out;
}

interface Row {
  set: string;
  label: number;
  x: number[];
}

function rowOf(item: RetrievedCase): Row | undefined {
  if (item.evidence.length === 0) return undefined;
  const rows = item.needs.map((need) => featureVector(featuresOf(read(need, item.evidence))));
  // The judge answers on its best need; the case's row is the need that looks most answered.
  const best = rows.sort((a, b) => (b[0] as number) + (b[5] as number) - ((a[0] as number) + (a[5] as number)))[0];
  return best ? { set: item.set, label: item.label, x: best } : undefined;
}

interface Model {
  mean: number[];
  scale: number[];
  w: number[];
  b: number;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

function fit(rows: readonly Row[]): Model {
  const d = FEATURE_NAMES.length;
  const mean = Array.from({ length: d }, (_, j) => rows.reduce((s, r) => s + (r.x[j] as number), 0) / rows.length);
  const scale = Array.from({ length: d }, (_, j) => Math.sqrt(rows.reduce((s, r) => s + ((r.x[j] as number) - (mean[j] as number)) ** 2, 0) / rows.length) || 1);
  const z = rows.map((r) => r.x.map((v, j) => (v - (mean[j] as number)) / (scale[j] as number)));
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(datasetOf(r.set), (counts.get(datasetOf(r.set)) ?? 0) + 1);
  const weightOf = rows.map((r) => 1 / (counts.get(datasetOf(r.set)) as number) / counts.size);
  const w = new Array<number>(d).fill(0);
  let b = 0;
  const rate = 0.5;
  for (let step = 0; step < 4000; step++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    rows.forEach((r, i) => {
      const zi = z[i] as number[];
      const p = sigmoid(b + zi.reduce((s, v, j) => s + v * (w[j] as number), 0));
      const g = (p - r.label) * (weightOf[i] as number);
      gb += g;
      for (let j = 0; j < d; j++) gw[j] = (gw[j] as number) + g * (zi[j] as number);
    });
    for (let j = 0; j < d; j++) w[j] = (w[j] as number) - rate * ((gw[j] as number) + LAMBDA * (w[j] as number));
    b -= rate * gb;
  }
  return { mean, scale, w, b };
}

/** The fitted model in raw feature units, as the judge applies it. */
function raw(model: Model): { weights: number[]; bias: number } {
  const weights = model.w.map((w, j) => w / (model.scale[j] as number));
  const bias = model.b - weights.reduce((s, w, j) => s + w * (model.mean[j] as number), 0);
  return { weights, bias };
}

const predict = (model: { weights: number[]; bias: number }, x: readonly number[]): number => sigmoid(model.bias + x.reduce((s, v, j) => s + v * (model.weights[j] as number), 0));

interface Scores {
  cases: number;
  accuracy: number;
  refusal_f1: number;
  false_refusal_rate: number;
  rejection_rate: number;
}

function score(pairs: readonly { label: number; p: number }[]): Scores {
  const answered = (p: number) => p >= SUFFICIENT_AT;
  const tp = pairs.filter((x) => x.label === 0 && !answered(x.p)).length; // refusals that were right
  const refusals = pairs.filter((x) => !answered(x.p)).length;
  const negatives = pairs.filter((x) => x.label === 0).length;
  const positives = pairs.filter((x) => x.label === 1).length;
  const precision = refusals ? tp / refusals : 0;
  const recall = negatives ? tp / negatives : 0;
  return {
    cases: pairs.length,
    accuracy: pairs.filter((x) => answered(x.p) === (x.label === 1)).length / Math.max(1, pairs.length),
    refusal_f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    false_refusal_rate: positives ? pairs.filter((x) => x.label === 1 && !answered(x.p)).length / positives : 0,
    rejection_rate: recall,
  };
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

function report(title: string, pairs: readonly (Row & { p: number })[]): Record<string, number> {
  const flat: Record<string, number> = {};
  log(title);
  for (const set of [...new Set(pairs.map((p) => p.set))]) {
    const s = score(pairs.filter((p) => p.set === set));
    log(`  ${set.padEnd(14)} n=${s.cases} acc=${r3(s.accuracy)} refusal_f1=${r3(s.refusal_f1)} false_refusals=${r3(s.false_refusal_rate)} rejection=${r3(s.rejection_rate)}`);
    flat[`${set}.accuracy`] = r3(s.accuracy);
    if (set === 'mtrag' || set === 'sample') {
      flat[`${set}.refusal_f1`] = r3(s.refusal_f1);
      flat[`${set}.false_refusal_rate`] = r3(s.false_refusal_rate);
    }
  }
  return flat;
}

const cases = await retrieved();
const only = flags.only?.split(',');
const rows = cases.filter((item) => !only || only.includes(item.set)).map(rowOf).filter((row): row is Row => row !== undefined);
log(`${rows.length} rows (${cases.length - rows.length} cases without evidence left out)`);

// Folds stratified by set: every fold sees every set.
const FOLDS = 5;
const fold = new Map<Row, number>();
for (const set of new Set(rows.map((r) => r.set))) rows.filter((r) => r.set === set).forEach((r, i) => fold.set(r, i % FOLDS));
const held: (Row & { p: number })[] = [];
for (let k = 0; k < FOLDS; k++) {
  const model = raw(fit(rows.filter((r) => fold.get(r) !== k)));
  for (const r of rows.filter((r) => fold.get(r) === k)) held.push({ ...r, p: predict(model, r.x) });
}
const cv = report(`${FOLDS}-fold cross-validated, threshold ${SUFFICIENT_AT}:`, held);

const final = raw(fit(rows));
report('fitted on all rows (in-sample):', rows.map((r) => ({ ...r, p: predict(final, r.x) })));
log(FEATURE_NAMES.map((name, j) => `${name}=${r3(final.weights[j] as number)}`).join(' ') + ` bias=${r3(final.bias)}`);

if (!flags['dry-run'] && !only) {
  const sets = [...new Set(rows.map((r) => r.set))];
  const weights: SufficiencyWeights = {
    features: [...FEATURE_NAMES],
    weights: final.weights.map((w) => Math.round(w * 10000) / 10000),
    bias: Math.round(final.bias * 10000) / 10000,
    fitted_on:
      `${rows.length} dev cases, one row per case (its best need), asked of the offline rag agent: ` +
      sets.map((set) => `${set} ${rows.filter((r) => r.set === set).length}`).join(', ') +
      `; L2 logistic regression (lambda ${LAMBDA}) on standardised features, datasets weighted equally; scripts/fit-sufficiency.ts`,
    cross_validated: cv,
  };
  writeFileSync(WEIGHTS_URL, `${JSON.stringify(weights, null, 2)}\n`);
  writeFileSync(join(repo, 'scripts/fit-sufficiency-rows.csv'), [['set', 'label', ...FEATURE_NAMES].join(','), ...rows.map((r) => [r.set, r.label, ...r.x.map(r3)].join(','))].join('\n') + '\n');
  log(`wrote ${fileURLToPath(WEIGHTS_URL)} and scripts/fit-sufficiency-rows.csv`);
}
