#!/usr/bin/env node
// Moves source files (or a folder) with `git mv` and rewrites every relative path string that pointed at them, in
// the moved files themselves and in every other source file of the repository.
// Usage: node scripts/move-module.mjs <from> <to>   (a file to a file, or a folder to a folder)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const [fromArg, toArg] = process.argv.slice(2);
if (!fromArg || !toArg) {
  console.error('usage: node scripts/move-module.mjs <from> <to>');
  process.exit(2);
}
const from = resolve(fromArg);
const to = resolve(toArg);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|json)$/;
const SKIP = new Set(['node_modules', 'dist', '.git', '.evident', 'coverage']);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : walk(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('package-lock.json') ? [path] : [];
  });
}

const moved = new Map(); // old absolute path -> new absolute path
if (statSync(from).isDirectory()) {
  for (const file of walk(from)) moved.set(file, join(to, relative(from, file)));
  for (const file of readdirSync(from, { recursive: true, withFileTypes: true })) {
    if (file.isFile() && !SOURCE.test(file.name))
      moved.set(
        join(file.parentPath ?? file.path, file.name),
        join(to, relative(from, join(file.parentPath ?? file.path, file.name))),
      );
  }
} else moved.set(from, to);

for (const [oldPath, newPath] of moved) {
  if (existsSync(newPath)) throw new Error(`${relative(root, newPath)} exists already`);
}
for (const [oldPath, newPath] of moved) {
  mkdirSync(dirname(newPath), { recursive: true });
  execFileSync('git', ['mv', oldPath, newPath], { cwd: root });
}

const newOf = (abs) => moved.get(abs) ?? abs;
const oldOf = new Map([...moved].map(([o, n]) => [n, o]));
const SPEC = /(['"`])(\.\.?\/[^'"`\n$]*)\1/g;
let changedFiles = 0;
for (const file of walk(root)) {
  const before = readFileSync(file, 'utf8');
  const wasAt = oldOf.get(file) ?? file; // where this file lived when its specifiers were written
  const after = before.replace(SPEC, (whole, quote, spec) => {
    const target = resolve(dirname(wasAt), spec);
    const now = newOf(target);
    if (now === target && wasAt === file) return whole;
    if (!moved.has(target) && !existsSync(target)) return whole; // not a path to a file of ours
    let rel = relative(dirname(file), now).split(sep).join('/');
    if (!rel.startsWith('.')) rel = `./${rel}`;
    if (spec.endsWith('/') && !rel.endsWith('/')) rel += '/';
    return `${quote}${rel}${quote}`;
  });
  if (after !== before) {
    writeFileSync(file, after);
    changedFiles++;
  }
}
console.log(`moved ${moved.size} file(s); rewrote paths in ${changedFiles} file(s)`);
