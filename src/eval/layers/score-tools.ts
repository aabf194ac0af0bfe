import type { TraceToolCall } from '../../runs/run-trace.ts';
import { notExposed, passOrFail, type LayerResult } from './layer-result.ts';
import { quoteList } from './score-rewrite.ts';

export interface ToolExpectation {
  expected?: string[] | undefined;
  forbidden?: string[] | undefined;
  order?: string[] | undefined;
}

/** Whether `wanted` occurs in `called` in that order (not necessarily adjacent). */
export function isSubsequence(wanted: readonly string[], called: readonly string[]): boolean {
  let next = 0;
  for (const name of called) if (name === wanted[next]) next++;
  return next === wanted.length;
}

/**
 * The tool trajectory: expected ⊆ called, forbidden ∩ called = ∅, `order` a subsequence of the calls, and every call's
 * arguments valid for its tool. Scored when the case expects something of the tools or the run called any (so
 * invalid arguments are always caught); a call whose schema the agent does not declare is not judged on arguments.
 */
export function scoreTools(expect: ToolExpectation | undefined, calls: readonly TraceToolCall[] | null): LayerResult {
  const expects = Boolean(expect && (expect.expected?.length || expect.forbidden?.length || expect.order?.length));
  if (calls === null) return expects ? notExposed : { status: 'n/a', detail: 'no expectation' };
  if (!expects && calls.length === 0) return { status: 'n/a', detail: 'no expectation, no calls' };
  const called = calls.map((call) => call.name);
  const calledSet = new Set(called);
  const missing = (expect?.expected ?? []).filter((name) => !calledSet.has(name));
  const forbidden = (expect?.forbidden ?? []).filter((name) => calledSet.has(name));
  const orderOk = isSubsequence(expect?.order ?? [], called);
  const invalid = calls.filter((call) => call.arguments_valid === false);
  const problems = [
    ...(missing.length ? [`not called: ${quoteList(missing)}`] : []),
    ...(forbidden.length ? [`forbidden but called: ${quoteList(forbidden)}`] : []),
    ...(orderOk ? [] : [`order ${(expect?.order ?? []).join(' → ')} not followed`]),
    ...(invalid.length
      ? [`invalid arguments: ${invalid.map((call) => `${call.name} ${JSON.stringify(call.arguments)}`).join(', ')}`]
      : []),
  ];
  const trajectory = called.length ? called.join(' → ') : 'no calls';
  return passOrFail(
    problems.length === 0,
    problems.length ? `${problems.join('; ')} (called: ${trajectory})` : trajectory,
    {
      arguments_valid: invalid.length === 0 ? 1 : 0,
    },
  );
}
