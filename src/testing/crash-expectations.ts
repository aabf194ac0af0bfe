import { expect } from 'vitest';
import type { CrashTrial } from './crash-ingest.ts';
import type { DocumentSnapshot } from './store-integrity.ts';

/** How many documents differ between two versions of the store (an empty one for `fresh`). */
function changed(references: readonly DocumentSnapshot[][], from: CrashTrial['from'], to: CrashTrial['to']): number {
  const target = references[to === 'v1' ? 0 : 1] ?? [];
  if (from === 'fresh') return target.length;
  const before = new Map((references[from === 'v1' ? 0 : 1] ?? []).map((doc) => [doc.doc_id, JSON.stringify(doc)]));
  return target.filter((doc) => before.get(doc.doc_id) !== JSON.stringify(doc)).length;
}

/** The crash tests' verdict: no problem after any kill, every point a real kill, and points both early and mid-ingest. */
export function expectCrashSafe(
  trials: readonly CrashTrial[],
  references: readonly DocumentSnapshot[][],
  points: number,
): void {
  expect(
    trials.flatMap((trial) =>
      trial.problems.map(
        (problem) => `trial ${trial.trial} (${trial.cli}, ${trial.from}→${trial.to}, ${trial.point}): ${problem}`,
      ),
    ),
  ).toEqual([]);
  expect(trials).toHaveLength(points);
  expect(trials.every((trial) => trial.killed.signal === 'SIGKILL')).toBe(true);
  // The uninterrupted versions differ in most documents, so a crash mid-way is visible as a mix.
  expect(changed(references, 'v1', 'v2')).toBeGreaterThan((references[0]?.length ?? 0) / 2);
  // Spread: some died before reporting any file, some with the new version partly in (a mix of old and new documents).
  expect(trials.some((trial) => trial.killed.markersSeen === 0)).toBe(true);
  expect(trials.some((trial) => trial.updated > 0 && trial.updated < changed(references, trial.from, trial.to))).toBe(
    true,
  );
  expect(trials.some((trial) => trial.cli === 'bin/evident.js')).toBe(true);
}
