/**
 * Fits the offline sufficiency model (src/agent/offline-qa/sufficiency-weights.json) on the dev data:
 *
 *   node --import tsx scripts/fit-sufficiency.ts [--work /tmp/fit-sufficiency] [--retrieve] [--limit N]
 *
 * (after a change to retrieval or the agent's rewrite, add --retrieve; after a change to the reader alone, the
 * cached retrieval is still what the agent judges and the refit takes a few seconds).
 *
 * 1. Retrieval (with --retrieve, or when the work folder has none yet): RGB zh dev (negative and positive),
 *    MTRAG-UN dev and the project's sample set are asked of the offline `rag` agent as `evident eval run` asks
 *    them; its needs and evidence per case are kept in the work folder (dataset text: never in the repository).
 * 2. Features: the reader (src/agent/offline-qa/reader.ts) measures each need; a case's row is its best need's
 *    (the judge answers when its best need is sufficient). The rows, numbers only, are written to
 *    scripts/fit-sufficiency-rows.csv.
 * 3. Fit: L2-regularised logistic regression on standardised features, each dataset (RGB, MTRAG-UN, sample set)
 *    weighted equally, by gradient descent: a language-neutral model on every row, and an English one (with the
 *    attribute and focus-head measurements) on the English rows, its unanswerable cases weighted up. 5-fold
 *    cross-validated figures (folds stratified by set) and figures held out by MTRAG collection (fitted without
 *    clapnq, tested on it; the same for fiqa) are printed and stored with the weights, since held-out data of the
 *    same kinds is what the model is judged on.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { read } from '../src/agent/offline-qa/reader.ts';
import { readAttribute } from '../src/agent/offline-qa/sufficiency-attribute.ts';
import {
  ENGLISH_FEATURES,
  FEATURE_NAMES,
  featuresOf,
  featureVector,
  NEUTRAL_FEATURES,
  type FeatureName,
} from '../src/agent/offline-qa/sufficiency-features.ts';
import { WEIGHTS_URL, type SufficiencyWeights } from '../src/agent/offline-qa/sufficiency-model.ts';
import { SUFFICIENT_AT } from '../src/agent/offline-qa/sufficiency.ts';
import {
  cachePath,
  mtragSets,
  readCache,
  retrieveSet,
  rgbSets,
  sampleSet,
  type DevSet,
  type RetrievedCase,
} from './fit-sufficiency-retrieve.ts';

const repo = resolve(fileURLToPath(import.meta.url), '../..');
const datasets = resolve(repo, '../shared/datasets');

const { values: flags } = parseArgs({
  options: {
    work: { type: 'string', default: '/tmp/fit-sufficiency' },
    retrieve: { type: 'boolean', default: false },
    limit: { type: 'string' },
    lambda: { type: 'string', default: '0.01' },
    /** The English model's regularisation and the share of each English dataset's weight its unanswerable cases get. */
    'en-lambda': { type: 'string', default: '0.1' },
    'en-refusal-cost': { type: 'string', default: '0.3' },
    /**
     * The same share for the language-neutral model. RGB (the Chinese set) is half unanswerable by construction; the
     * share trades its rejection for its accuracy (measured 2026-12-02 with bench:answer: 0.45 → 0.613 / 0.807,
     * 0.48 → 0.660 / 0.780, 0.52 → 0.733 / 0.760); 0.48 keeps a margin above the 0.6 rejection floor.
     */
    'refusal-cost': { type: 'string', default: '0.48' },
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
const EN_LAMBDA = Number(flags['en-lambda']);
const EN_REFUSAL_COST = Number(flags['en-refusal-cost']);
const REFUSAL_COST = flags['refusal-cost'] === undefined ? undefined : Number(flags['refusal-cost']);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Which dataset a set belongs to: each dataset weighs the same in the fit. */
const datasetOf = (set: string): string => set.replace(/-(?:negative|positive)$/, '');

/** Each case's tags (an MTRAG case's collection among them), kept from the sets even when retrieval is cached. */
const tagsOf = new Map<string, string[]>();

async function retrieved(): Promise<RetrievedCase[]> {
  const sets: (() => Promise<DevSet[]>)[] = [
    () => rgbSets(join(datasets, 'rgb-zh/zh_refine_dev.jsonl'), work),
    () => mtragSets(join(datasets, 'mtrag-un/reference_dev.jsonl'), work),
    async () => [sampleSet(repo)],
  ];
  const out: RetrievedCase[] = [];
  for (const make of sets) {
    for (const set of await make()) {
      for (const item of set.cases) tagsOf.set(`${set.name}:${item.id}`, item.tags);
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
  id: string;
  /** The MTRAG collection (clapnq, fiqa) a case is from; '' for the other sets. */
  collection: string;
  label: number;
  x: number[];
}

const MTRAG_COLLECTIONS = ['clapnq', 'fiqa'];

function rowOf(item: RetrievedCase): Row | undefined {
  if (item.evidence.length === 0) return undefined;
  const rows = item.needs.map((need) => {
    const reading = read(need, item.evidence);
    return featureVector(
      featuresOf(reading, readAttribute(need, item.evidence, reading.focus.entities, reading.focus.answer_type)),
    );
  });
  // The judge answers on its best need; the case's row is the need that looks most answered.
  const best = rows.sort((a, b) => (b[0] as number) + (b[5] as number) - ((a[0] as number) + (a[5] as number)))[0];
  const collection =
    item.set === 'mtrag'
      ? (MTRAG_COLLECTIONS.find((name) => tagsOf.get(`${item.set}:${item.id}`)?.includes(name)) ?? '')
      : '';
  return best ? { set: item.set, id: item.id, collection, label: item.label, x: best } : undefined;
}

/**
 * One model to fit: which rows, which features, how heavily a wrong answer weighs against a wrong refusal, and the
 * regularisation. `refusalCost` is the share of each dataset's weight given to its unanswerable cases (none: their
 * natural share). The English sets hold a fifth to a quarter unanswerable cases; at their natural share a model
 * that answers nearly everything is the likeliest one, and an answer without evidence costs a user more than a
 * refusal (the issue's targets: refusal F1 up, false refusals at most 15%).
 */
interface Spec {
  language: 'any' | 'en';
  features: readonly FeatureName[];
  takes: (row: Row) => boolean;
  refusalCost?: number;
  lambda: number;
}

const SPECS: readonly Spec[] = [
  {
    language: 'any',
    features: NEUTRAL_FEATURES,
    takes: () => true,
    ...(REFUSAL_COST === undefined ? {} : { refusalCost: REFUSAL_COST }),
    lambda: LAMBDA,
  },
  {
    language: 'en',
    features: ENGLISH_FEATURES,
    takes: (row) => row.x[FEATURE_NAMES.indexOf('cjk')] === 0,
    refusalCost: EN_REFUSAL_COST,
    lambda: EN_LAMBDA,
  },
];

interface Fitted {
  language: Spec['language'];
  columns: number[];
  weights: number[];
  bias: number;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** L2 logistic regression by gradient descent on standardised features, each dataset weighing the same. */
function fit(spec: Spec, all: readonly Row[]): Fitted {
  const rows = all.filter(spec.takes);
  const columns = spec.features.map((name) => FEATURE_NAMES.indexOf(name));
  const d = columns.length;
  const xs = rows.map((r) => columns.map((c) => r.x[c] as number));
  const mean = Array.from({ length: d }, (_, j) => xs.reduce((s, x) => s + (x[j] as number), 0) / xs.length);
  const scale = Array.from(
    { length: d },
    (_, j) => Math.sqrt(xs.reduce((s, x) => s + ((x[j] as number) - (mean[j] as number)) ** 2, 0) / xs.length) || 1,
  );
  const z = xs.map((x) => x.map((v, j) => (v - (mean[j] as number)) / (scale[j] as number)));
  const groups = new Map<string, number>();
  const key = (r: Row) => (spec.refusalCost === undefined ? datasetOf(r.set) : `${datasetOf(r.set)}:${r.label}`);
  for (const r of rows) groups.set(key(r), (groups.get(key(r)) ?? 0) + 1);
  const datasets = new Set(rows.map((r) => datasetOf(r.set))).size;
  const weightOf = rows.map((r) => {
    const share = spec.refusalCost === undefined ? 1 : r.label === 0 ? spec.refusalCost : 1 - spec.refusalCost;
    return share / (groups.get(key(r)) as number) / datasets;
  });
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
    for (let j = 0; j < d; j++) w[j] = (w[j] as number) - rate * ((gw[j] as number) + spec.lambda * (w[j] as number));
    b -= rate * gb;
  }
  // Back to raw feature units, as the judge applies them.
  const weights = w.map((value, j) => value / (scale[j] as number));
  return {
    language: spec.language,
    columns,
    weights,
    bias: b - weights.reduce((s, value, j) => s + value * (mean[j] as number), 0),
  };
}

const fitAll = (rows: readonly Row[]): Fitted[] => SPECS.map((spec) => fit(spec, rows));

/** A row is judged as the judge would: by its language's model, else the neutral one. */
function predict(models: readonly Fitted[], row: Row): number {
  const english = row.x[FEATURE_NAMES.indexOf('cjk')] === 0;
  const model =
    (english ? models.find((m) => m.language === 'en') : undefined) ??
    (models.find((m) => m.language === 'any') as Fitted);
  return sigmoid(
    model.bias + model.columns.reduce((s, c, j) => s + (row.x[c] as number) * (model.weights[j] as number), 0),
  );
}

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
    log(
      `  ${set.padEnd(14)} n=${s.cases} acc=${r3(s.accuracy)} refusal_f1=${r3(s.refusal_f1)} false_refusals=${r3(s.false_refusal_rate)} rejection=${r3(s.rejection_rate)}`,
    );
    flat[`${set}.accuracy`] = r3(s.accuracy);
    if (set.startsWith('mtrag') || set === 'sample') {
      flat[`${set}.refusal_f1`] = r3(s.refusal_f1);
      flat[`${set}.false_refusal_rate`] = r3(s.false_refusal_rate);
    }
  }
  return flat;
}

const cases = await retrieved();
const only = flags.only?.split(',');
const rows = cases
  .filter((item) => !only || only.includes(item.set))
  .map(rowOf)
  .filter((row): row is Row => row !== undefined);
log(`${rows.length} rows (${cases.length - rows.length} cases without evidence left out)`);

// Folds stratified by set: every fold sees every set.
const FOLDS = 5;
const fold = new Map<Row, number>();
for (const set of new Set(rows.map((r) => r.set)))
  rows.filter((r) => r.set === set).forEach((r, i) => fold.set(r, i % FOLDS));
const held: (Row & { p: number })[] = [];
for (let k = 0; k < FOLDS; k++) {
  const models = fitAll(rows.filter((r) => fold.get(r) !== k));
  for (const r of rows.filter((r) => fold.get(r) === k)) held.push({ ...r, p: predict(models, r) });
}
const cv = report(`${FOLDS}-fold cross-validated, threshold ${SUFFICIENT_AT}:`, held);

// Held out by collection: fitted without one MTRAG collection's cases, tested on them (other collections of the
// same kind are what the model meets next).
const crossCollection: Record<string, number> = {};
for (const collection of MTRAG_COLLECTIONS) {
  const models = fitAll(rows.filter((r) => r.collection !== collection));
  const test = rows
    .filter((r) => r.collection === collection)
    .map((r) => ({ ...r, set: `mtrag-${collection}`, p: predict(models, r) }));
  if (test.length === 0) continue;
  Object.assign(crossCollection, report(`held out: fitted without MTRAG ${collection}, tested on it:`, test));
}

const final = fitAll(rows);
const inSample = report(
  'fitted on all rows (in-sample):',
  rows.map((r) => ({ ...r, p: predict(final, r) })),
);
for (const model of final)
  log(
    `${model.language}: ${model.columns.map((c, j) => `${FEATURE_NAMES[c]}=${r3(model.weights[j] as number)}`).join(' ')} bias=${r3(model.bias)}`,
  );

if (!flags['dry-run'] && !only) {
  const sets = [...new Set(rows.map((r) => r.set))];
  const counts = (list: readonly Row[]) =>
    [...new Set(list.map((r) => r.set))].map((set) => `${set} ${list.filter((r) => r.set === set).length}`).join(', ');
  const weights: SufficiencyWeights = {
    fitted_on:
      `${rows.length} dev cases, one row per case (its best need), asked of the offline rag agent: ${counts(rows)}; ` +
      `scripts/fit-sufficiency.ts (rows in scripts/fit-sufficiency-rows.csv)`,
    fitted_at: new Date().toISOString().slice(0, 10),
    models: SPECS.map((spec, i) => {
      const model = final[i] as Fitted;
      const taken = rows.filter(spec.takes);
      return {
        language: spec.language,
        features: [...spec.features],
        weights: model.weights.map((w) => Math.round(w * 10000) / 10000),
        bias: Math.round(model.bias * 10000) / 10000,
        fitted_on:
          `${taken.length} rows (${counts(taken)}); L2 logistic regression (lambda ${spec.lambda}) on standardised features, datasets weighted equally` +
          (spec.refusalCost === undefined ? '' : `, unanswerable cases ${spec.refusalCost} of each dataset's weight`),
      };
    }),
    cross_validated: { ...cv, ...crossCollection },
    in_sample: inSample,
  };
  writeFileSync(WEIGHTS_URL, `${JSON.stringify(weights, null, 2)}\n`);
  writeFileSync(
    join(repo, 'scripts/fit-sufficiency-rows.csv'),
    [['set', 'label', ...FEATURE_NAMES].join(','), ...rows.map((r) => [r.set, r.label, ...r.x.map(r3)].join(','))].join(
      '\n',
    ) + '\n',
  );
  log(`wrote ${fileURLToPath(WEIGHTS_URL)} and scripts/fit-sufficiency-rows.csv`);
}
// Per-case rows with ids and held-out probabilities, for looking at errors (ids only; kept outside the repository).
writeFileSync(
  join(work, 'rows-explained.tsv'),
  [
    ['set', 'id', 'collection', 'label', 'p_cv', ...FEATURE_NAMES].join('\t'),
    ...held.map((r) => [r.set, r.id, r.collection, r.label, r3(r.p), ...r.x.map(r3)].join('\t')),
  ].join('\n') + '\n',
);
