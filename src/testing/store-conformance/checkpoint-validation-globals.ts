import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * LangGraph's public checkpointer conformance suite (`@langchain/langgraph-checkpoint-validation`) is written
 * against Jest-style globals; this installs vitest's. Checks named in `expectedFailures` must fail (`it.fails`),
 * so a known upstream gap is pinned down rather than hidden, and noticed the day it closes.
 */
export function installValidationGlobals(expectedFailures: ReadonlySet<string> = new Set()): void {
  const itWithExpectedFailures = new Proxy(it, {
    apply: (target, self, args: Parameters<typeof it>) =>
      typeof args[0] === 'string' && expectedFailures.has(args[0])
        ? target.fails(...args)
        : Reflect.apply(target, self, args),
  });
  Object.assign(globalThis, {
    afterAll,
    afterEach,
    beforeAll,
    beforeEach,
    describe,
    expect,
    it: itWithExpectedFailures,
  });
}
