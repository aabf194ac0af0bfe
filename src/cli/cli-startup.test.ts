import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf } from '../testing/source-imports.ts';

const SRC = resolve(import.meta.dirname, '..');

/** Static imports and re-exports of a module that stay at run time (`import type` and `export type` are erased). */
const runtimeImports = (file: string): string[] =>
  importsOf(file)
    .filter((found) => !found.typeOnly && !found.dynamic)
    .map((found) => found.specifier);

/** Every package reached from `entry` through static imports, with the chain of modules that reaches it first. */
function packagesReachedFrom(entry: string): Map<string, string> {
  const via = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  const packages = new Map<string, string>();
  const chain = (file: string): string => {
    const names: string[] = [];
    for (let at: string | undefined = file; at; at = via.get(at)) names.unshift(relative(SRC, at));
    return names.join(' > ');
  };
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (!via.has(target) && existsSync(target)) {
          via.set(target, file);
          queue.push(target);
        }
      } else if (!specifier.startsWith('node:')) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        if (name && !packages.has(name)) packages.set(name, chain(file));
      }
    }
  }
  return packages;
}

describe('the CLI at start-up', () => {
  it('loads commander and its own modules only: every command imports its engine, models and parsers when it runs', () => {
    // `evident --help` and the parsing of every command go through these modules; a package found here would load
    // with every command (the chain says through which import, to make lazy with `await import(…)` in the action).
    const packages = packagesReachedFrom(resolve(SRC, 'cli/main.ts'));
    expect(Object.fromEntries([...packages].filter(([name]) => name !== 'commander'))).toEqual({});
    expect(packages.has('commander')).toBe(true);
  });
});

describe('the stores at start-up', () => {
  it('load no LangGraph or LangChain: the checkpoint saver loads when an agent opens a checkpointer', () => {
    // `evident search` and `evident ingest` open a store and never run an agent; LangGraph and the LangChain under it
    // are about 500 modules, so they wait for `openCheckpointer()` (the chain names the import that reaches them).
    for (const entry of ['evident.ts', 'store/sqlite/store.ts', 'store/postgres/store.ts']) {
      const packages = packagesReachedFrom(resolve(SRC, entry));
      expect(Object.fromEntries([...packages].filter(([name]) => name.startsWith('@langchain/')))).toEqual({});
    }
  });
});
