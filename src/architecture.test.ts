import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf } from './testing/source-imports.ts';

/**
 * The import rules of ARCHITECTURE §2 and §7: a layer imports only what is below it. Every static `import … from`,
 * `export … from`, side-effect `import '…'` and dynamic `import('…')` of every source file is checked, type-only
 * imports included (a type is a dependency too). Paths are relative to the repository root.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where a source file belongs: the most specific prefix that matches. */
const BASE = ['src/domain', 'src/errors', 'src/logging'];

interface Rule {
  from: string;
  /** Only these (and the layer itself) may be imported from `src/`. */
  only?: string[];
  /** These may not be imported. */
  not?: string[];
}

/** What builds on the engines in agent/: the agents and their shared core (its nodes, tools and memory). */
const AGENT_ROOMS = ['rag', 'react', 'controllable', 'core'].map((room) => `src/agent/${room}`);

const RULES: Rule[] = [
  ...BASE.map((from) => ({ from, only: BASE })),
  { from: 'src/format', only: BASE },
  { from: 'src/text', only: [...BASE, 'src/format'] },
  {
    from: 'src/store',
    not: ['src/agent', 'src/runs', 'src/retrieval', 'src/ingest', 'src/server', 'src/cli', 'src/eval'],
  },
  { from: 'src/store/postgres', not: ['src/store/sqlite'] },
  { from: 'src/store/sqlite', not: ['src/store/postgres'] },
  { from: 'src/ingest', not: ['src/agent', 'src/runs', 'src/server', 'src/cli', 'src/eval'] },
  { from: 'src/retrieval', not: ['src/agent', 'src/runs', 'src/server', 'src/cli', 'src/eval', 'src/ingest'] },
  { from: 'src/models', not: ['src/agent', 'src/runs', 'src/server', 'src/cli', 'src/eval', 'src/store'] },
  { from: 'src/agent', not: ['src/server', 'src/cli', 'src/eval'] },
  // The agents share agent/core, never one another: editing a shared node is editing core.
  { from: 'src/agent/rag', not: ['src/agent/react', 'src/agent/controllable'] },
  { from: 'src/agent/react', not: ['src/agent/rag', 'src/agent/controllable'] },
  { from: 'src/agent/controllable', not: ['src/agent/rag', 'src/agent/react'] },
  { from: 'src/agent/core', not: ['src/agent/rag', 'src/agent/react', 'src/agent/controllable'] },
  // The offline question-answering and question-to-SQL engines sit below the agents and the run engine.
  ...['src/agent/offline-qa', 'src/agent/table-sql'].map((from) => ({ from, not: [...AGENT_ROOMS, 'src/runs'] })),
  // The run engine sits between the store and the agents: agents import its agent-definition types, not the reverse.
  { from: 'src/runs', not: ['src/agent', 'src/server', 'src/cli', 'src/eval', 'src/adapters'] },
  { from: 'src/server', not: ['src/cli', 'src/eval', 'src/adapters'] },
  { from: 'src/eval', not: ['src/cli', 'src/server'] },
  // Tracing sits beside logging: every layer may open spans, so it depends on nothing above the base.
  { from: 'src/telemetry', only: [...BASE, 'src/config'] },
  // The audit log's recording is a service over the store and the search; front ends call it, never the reverse.
  { from: 'src/audit', not: ['src/server', 'src/cli', 'src/eval', 'src/adapters'] },
  // Framework adapters are front ends of their own: beside the server and the CLI, not used by them.
  { from: 'src/adapters', not: ['src/cli', 'src/eval'] },
  { from: 'src/cli', not: ['src/adapters'] },
  // The server's wire schemas are read by the web UI's type checker, which knows no Node: zod and domain types only.
  { from: 'src/server/schemas', only: ['src/domain'] },
];

/** The web UI reads the wire types only: the shared domain types and the server's schemas (no Node, no server code). */
const WEB_MAY_IMPORT = ['src/domain', 'src/server/schemas'];

/** No source file is longer than this (tests aside): a longer one holds more than one concept. */
const MAX_LINES = 450;

const isTest = (file: string) => /\.(int\.)?test\.tsx?$/.test(file);
const within = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`) || file.startsWith(`${dir}.`);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface ImportEdge {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

const edgesOf = (file: string): ImportEdge[] =>
  importsOf(join(root, file)).map(({ specifier, typeOnly }) => ({ file, specifier, typeOnly }));

/** The repository path an import points at, or undefined for a package. */
const target = (edge: ImportEdge) =>
  edge.specifier.startsWith('.') ? relative(root, resolve(root, dirname(edge.file), edge.specifier)) : undefined;

function violations(edges: ImportEdge[]): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    const to = target(edge);
    if (!to) continue;
    const line = `${edge.file} imports ${edge.specifier}`;
    if (within(to, 'src/testing') && !within(edge.file, 'src/testing') && !isTest(edge.file))
      found.push(`${line} (library code must not import src/testing)`);
    if (within(edge.file, 'web') && within(to, 'src') && !edge.typeOnly)
      found.push(`${line} (the web UI imports the server's types only: import type)`);
    if (within(edge.file, 'web') && within(to, 'src') && !WEB_MAY_IMPORT.some((dir) => within(to, dir)))
      found.push(`${line} (the web UI may import only ${WEB_MAY_IMPORT.join(', ')})`);
    // Tests wire real dependencies across layers (a models test on a real store); the layers bind library code.
    if (isTest(edge.file)) continue;
    for (const rule of RULES) {
      if (!within(edge.file, rule.from) || within(to, rule.from) || !within(to, 'src')) continue;
      if (rule.only && !rule.only.some((dir) => within(to, dir)))
        found.push(`${line} (${rule.from} may import only ${rule.only.join(', ')})`);
      if (rule.not?.some((dir) => within(to, dir)))
        found.push(`${line} (${rule.from} must not import ${rule.not.find((dir) => within(to, dir))})`);
    }
  }
  return found;
}

/** Tarjan's strongly connected components of the import graph: a component of two or more files is a cycle. */
function components(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    found.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** A shortest import path from `start` back to itself through the component's files (breadth first). */
function cycleThrough(start: string, graph: Map<string, string[]>, members: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const to of graph.get(file) ?? []) {
      if (to === start) {
        const path = [file];
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
        return [...path, start];
      }
      if (members.has(to) && !previous.has(to)) {
        previous.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** Every import cycle among the files of src/ (type-only imports count: a type is a dependency too), one line each. */
function cycles(edges: ImportEdge[]): string[] {
  const graph = new Map<string, string[]>();
  for (const edge of edges) {
    const to = target(edge);
    if (!to || !within(edge.file, 'src') || !within(to, 'src')) continue;
    graph.set(edge.file, [...(graph.get(edge.file) ?? []), to]);
  }
  return components(graph)
    .filter((component) => component.length > 1 || graph.get(component[0] as string)?.includes(component[0] as string))
    .map((component) => {
      const start = [...component].sort()[0] as string;
      const path = cycleThrough(start, graph, new Set(component));
      return `import cycle of ${component.length} file(s): ${path.join(' → ')}`;
    });
}

const edges = [...sourceFiles('src'), ...sourceFiles('web/src')].flatMap(edgesOf);

describe('architecture: the import rules', () => {
  it('reads the imports of every source file', () => {
    const specifiers = edges
      .filter((edge) => edge.file === 'src/models/create-embedder.ts')
      .map((edge) => edge.specifier);
    expect(specifiers).toContain('./transformers/transformers-embedder.ts'); // a dynamic import
    expect(specifiers).toContain('../errors/index.ts'); // a static one
  });

  it('finds no forbidden edge', () => {
    expect(violations(edges)).toEqual([]);
  });

  it('catches a forbidden edge, naming the file and the import', () => {
    const edge = (file: string, specifier: string, typeOnly = false): ImportEdge => ({ file, specifier, typeOnly });
    expect(
      violations([
        edge('src/store/sqlite/x.ts', '../postgres/y.ts'),
        edge('src/retrieval/x.ts', '../agent/y.ts', true),
        edge('src/domain/x.ts', '../config/y.ts'),
        edge('src/ingest/x.ts', '../testing/y.ts'),
        edge('src/ingest/x.test.ts', '../testing/y.ts'),
        edge('web/src/x.ts', '../../src/domain/answer.ts'),
        edge('web/src/y.ts', '../../src/domain/answer.ts', true),
        edge('web/src/z.ts', '../../src/agent/core/state.ts', true),
        edge('src/runs/x.ts', '../agent/y.ts', true),
      ]),
    ).toEqual([
      'src/store/sqlite/x.ts imports ../postgres/y.ts (src/store/sqlite must not import src/store/postgres)',
      'src/retrieval/x.ts imports ../agent/y.ts (src/retrieval must not import src/agent)',
      'src/domain/x.ts imports ../config/y.ts (src/domain may import only src/domain, src/errors, src/logging)',
      'src/ingest/x.ts imports ../testing/y.ts (library code must not import src/testing)',
      "web/src/x.ts imports ../../src/domain/answer.ts (the web UI imports the server's types only: import type)",
      'web/src/z.ts imports ../../src/agent/core/state.ts (the web UI may import only src/domain, src/server/schemas)',
      'src/runs/x.ts imports ../agent/y.ts (src/runs must not import src/agent)',
    ]);
  });

  it('finds no import cycle in src/', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('catches an import cycle, type-only imports included, and prints it', () => {
    const edge = (file: string, specifier: string, typeOnly = false): ImportEdge => ({ file, specifier, typeOnly });
    expect(
      cycles([
        edge('src/x/b.ts', './c.ts'),
        edge('src/x/a.ts', './b.ts'),
        edge('src/x/c.ts', './a.ts', true),
        edge('src/x/d.ts', './a.ts'),
        edge('src/x/e.ts', './e.ts'),
        edge('src/y/f.ts', '../x/d.ts'),
      ]),
    ).toEqual([
      'import cycle of 3 file(s): src/x/a.ts → src/x/b.ts → src/x/c.ts → src/x/a.ts',
      'import cycle of 1 file(s): src/x/e.ts → src/x/e.ts',
    ]);
    expect(cycles([edge('src/x/a.ts', './b.ts'), edge('src/x/b.ts', './c.ts')])).toEqual([]);
  });
});

describe('architecture: file size', () => {
  it(`keeps every source file of src/ and web/src within ${MAX_LINES} lines (tests aside)`, () => {
    const long = [...sourceFiles('src'), ...sourceFiles('web/src')]
      .filter((file) => !isTest(file))
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
