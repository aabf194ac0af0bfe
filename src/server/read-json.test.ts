import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { depthOf, nestsDeeperThan } from './json-depth.ts';

const SERVER = fileURLToPath(new URL('.', import.meta.url));

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });

describe('the one JSON reader', () => {
  it('is the only server code that reads a request body as JSON or text (uploads read their form)', () => {
    const readsBody =
      /\.req\.(json|text|arrayBuffer|blob|parseBody|formData)\(|\.raw\.(body|json|text|arrayBuffer|formData)\b|\.body\.getReader\(/;
    const readers = sourceFiles(SERVER)
      .filter((path) => readsBody.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SERVER, path))
      .sort();
    expect(readers).toEqual(['read-json.ts', 'routes/upload-form.ts']);
  });
});

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, up to and over the limit', () => {
    expect(nestsDeeperThan('{}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a": [1]}', 1)).toBe(true);
    expect(nestsDeeperThan('{"a": [1]}', 2)).toBe(false);
    expect(nestsDeeperThan('[[], [], [[]]]', 2)).toBe(true);
    expect(nestsDeeperThan(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, 32)).toBe(true);
    expect(nestsDeeperThan('"just text"', 0)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ a: '[[[[{{{{' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: 'say \\"[[[[" and \\\\' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: '\\', b: [[1]] }), 2)).toBe(true);
  });
});

describe('depthOf', () => {
  it('counts levels the way the text scan counts brackets, and stops past the limit', () => {
    expect(depthOf(1, 5)).toBe(0);
    expect(depthOf({}, 5)).toBe(1);
    expect(depthOf({ a: 1 }, 5)).toBe(1);
    expect(depthOf({ a: [1], b: { c: { d: null } } }, 5)).toBe(3);
    const deep = JSON.parse(`${'['.repeat(1000)}${']'.repeat(1000)}`) as unknown;
    expect(depthOf(deep, 8)).toBeGreaterThan(8);
    expect(depthOf(deep, 2000)).toBe(1000);
  });
});
