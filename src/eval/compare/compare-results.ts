import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.ts';
import { formatZodIssues } from '../cases/read-cases.ts';
import { LAYERS, type LayerName, type LayerStatus } from '../layers/layer-result.ts';

/** What `eval compare` needs of an `eval run --json` result (other fields are ignored). */
const resultSchema = z.object({
  cases: z.array(
    z.object({
      id: z.string(),
      agent: z.string(),
      passed: z.boolean(),
      first_failure: z.string().nullable(),
      layers: z.record(
        z.string(),
        z.object({ status: z.enum(['pass', 'fail', 'n/a']), detail: z.string().optional() }),
      ),
    }),
  ),
});
type ResultCase = z.infer<typeof resultSchema>['cases'][number];

export interface LayerChange {
  layer: LayerName;
  before: LayerStatus;
  after: LayerStatus;
}

export interface CaseChange {
  id: string;
  agent: string;
  /** `improved`: fewer failing layers or a later first failure; `regressed`: the reverse; `changed`: otherwise different. */
  verdict: 'improved' | 'regressed' | 'changed' | 'unchanged';
  before: { passed: boolean; first_failure: string | null };
  after: { passed: boolean; first_failure: string | null };
  improved: LayerChange[];
  regressed: LayerChange[];
}

export interface Comparison {
  changes: CaseChange[];
  only_before: string[];
  only_after: string[];
  counts: { improved: number; regressed: number; changed: number; unchanged: number };
  pass_rate: { before: number; after: number };
}

export async function readResult(file: string): Promise<ResultCase[]> {
  if (!existsSync(file))
    throw new ValidationError(`The result file ${file} does not exist.`, {
      hint: 'Pass two files written by `evident eval run --json`.',
    });
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (cause) {
    throw new ValidationError(`${file} is not valid JSON.`, {
      cause,
      hint: 'Pass two files written by `evident eval run --json`.',
    });
  }
  const parsed = resultSchema.safeParse(value);
  if (!parsed.success)
    throw new ValidationError(`${file} is not an eval result: ${formatZodIssues(parsed.error)}.`, {
      hint: 'Pass two files written by `evident eval run --json`.',
    });
  return parsed.data.cases;
}

const keyOf = (result: ResultCase): string => `${result.agent}\u0000${result.id}`;
const labelOf = (result: ResultCase): string => `${result.agent}/${result.id}`;
const rank = (firstFailure: string | null): number =>
  firstFailure === null ? LAYERS.length : LAYERS.indexOf(firstFailure as LayerName);
const statusOf = (result: ResultCase, layer: LayerName): LayerStatus => result.layers[layer]?.status ?? 'n/a';

/** Case by case (matched by agent and id) and layer by layer: what passes now that failed, and what fails now that passed. */
export function compareResults(before: readonly ResultCase[], after: readonly ResultCase[]): Comparison {
  const afterByKey = new Map(after.map((result) => [keyOf(result), result]));
  const beforeKeys = new Set(before.map(keyOf));
  const changes: CaseChange[] = [];
  for (const old of before) {
    const now = afterByKey.get(keyOf(old));
    if (!now) continue;
    const layerChanges = LAYERS.map((layer) => ({
      layer,
      before: statusOf(old, layer),
      after: statusOf(now, layer),
    })).filter((c) => c.before !== c.after);
    const improved = layerChanges.filter((c) => c.before === 'fail' && c.after === 'pass');
    const regressed = layerChanges.filter((c) => c.before === 'pass' && c.after === 'fail');
    const verdict: CaseChange['verdict'] =
      old.passed !== now.passed
        ? now.passed
          ? 'improved'
          : 'regressed'
        : rank(now.first_failure) !== rank(old.first_failure)
          ? rank(now.first_failure) > rank(old.first_failure)
            ? 'improved'
            : 'regressed'
          : improved.length !== regressed.length
            ? improved.length > regressed.length
              ? 'improved'
              : 'regressed'
            : layerChanges.length
              ? 'changed'
              : 'unchanged';
    changes.push({
      id: old.id,
      agent: old.agent,
      verdict,
      before: { passed: old.passed, first_failure: old.first_failure },
      after: { passed: now.passed, first_failure: now.first_failure },
      improved,
      regressed,
    });
  }
  const count = (verdict: CaseChange['verdict']) => changes.filter((change) => change.verdict === verdict).length;
  const rate = (cases: readonly ResultCase[]) =>
    cases.length ? cases.filter((c) => c.passed).length / cases.length : 0;
  return {
    changes,
    only_before: before.filter((result) => !afterByKey.has(keyOf(result))).map(labelOf),
    only_after: after.filter((result) => !beforeKeys.has(keyOf(result))).map(labelOf),
    counts: {
      improved: count('improved'),
      regressed: count('regressed'),
      changed: count('changed'),
      unchanged: count('unchanged'),
    },
    pass_rate: { before: rate(before), after: rate(after) },
  };
}

const layerList = (changes: readonly LayerChange[]): string => changes.map((change) => change.layer).join(', ');
const outcome = (side: CaseChange['before']): string => (side.passed ? 'pass' : `fail at ${side.first_failure}`);

/** The comparison as text: one line per changed case, then the summary line. */
export function renderComparison(comparison: Comparison): string {
  const lines: string[] = [];
  for (const change of comparison.changes) {
    if (change.verdict === 'unchanged') continue;
    const details = [
      ...(change.improved.length ? [`now passes ${layerList(change.improved)}`] : []),
      ...(change.regressed.length ? [`now fails ${layerList(change.regressed)}`] : []),
    ];
    lines.push(
      `${change.verdict.padEnd(9)} ${change.agent}/${change.id}: ${outcome(change.before)} → ${outcome(change.after)}${details.length ? ` (${details.join('; ')})` : ''}`,
    );
  }
  for (const label of comparison.only_before) lines.push(`removed   ${label}`);
  for (const label of comparison.only_after) lines.push(`added     ${label}`);
  const { counts, pass_rate } = comparison;
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  lines.push(
    `${counts.improved} improved, ${counts.regressed} regressed, ${counts.changed} changed, ${counts.unchanged} unchanged` +
      (comparison.only_before.length || comparison.only_after.length
        ? `; ${comparison.only_before.length} removed, ${comparison.only_after.length} added`
        : '') +
      `; pass rate ${pct(pass_rate.before)} → ${pct(pass_rate.after)}`,
  );
  return `${lines.join('\n')}\n`;
}
