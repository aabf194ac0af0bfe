import type { Reporter, TestModule, Vitest } from 'vitest/node';
import type { MissingRequirement } from './requirements.ts';

interface Group {
  requirement: MissingRequirement;
  details: Set<string>;
  skipped: number;
  failed: number;
}

/**
 * After the run, one line per missing requirement (see `requirements.ts`): how many tests it skipped (or, under CI,
 * failed) and the command that provides it, so a skip is never silent and never repeated per test.
 */
export class RequirementsReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines = requirementSummary(testModules);
    const log = (line: string) => (this.vitest ? this.vitest.logger.log(line) : process.stdout.write(line + '\n'));
    for (const line of lines) log(line);
    if (lines.length) log('');
  }
}

/** The summary lines for the tests of `testModules` that recorded a missing requirement. */
export function requirementSummary(testModules: ReadonlyArray<TestModule>): string[] {
  const outcomes: RequirementOutcome[] = [];
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const requirement = test.meta().requirement;
      if (requirement) outcomes.push({ requirement, state: test.result().state });
    }
  }
  return summarizeRequirements(outcomes);
}

/** A test that recorded a missing requirement, and how it ended. */
export interface RequirementOutcome {
  requirement: MissingRequirement;
  state: string;
}

/** One line per (kind, reason, hint): the same missing folder behind several datasets is one line. */
export function summarizeRequirements(outcomes: Iterable<RequirementOutcome>): string[] {
  const groups = new Map<string, Group>();
  for (const { requirement, state } of outcomes) {
    const key = JSON.stringify([requirement.kind, requirement.missing, requirement.hint]);
    const group = groups.get(key) ?? { requirement, details: new Set<string>(), skipped: 0, failed: 0 };
    groups.set(key, group);
    if (requirement.detail !== undefined) group.details.add(requirement.detail);
    if (state === 'skipped') group.skipped += 1;
    else if (state === 'failed') group.failed += 1;
  }
  const lines: string[] = [];
  // In a fixed order (by kind, then reason), whichever test file ended first.
  for (const [, { requirement, details, skipped, failed }] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const { kind, missing, hint } = requirement;
    // The details only when the reason does not already name them (one missing file names itself).
    const named = [...details].filter((detail) => !missing.includes(detail)).sort();
    const which = named.length ? ` (${named.join(', ')})` : '';
    const tests = (count: number) => `${count} ${kind} test${count === 1 ? '' : 's'}${which}`;
    if (skipped) lines.push(`skipped ${tests(skipped)}: ${missing} — ${hint}`);
    if (failed) lines.push(`CI skips nothing: failed ${tests(failed)}: ${missing} — ${hint}`);
  }
  return lines;
}
