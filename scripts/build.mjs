#!/usr/bin/env node
// Builds the package: src/**/*.ts → dist/**/*.js + .d.ts (tsconfig.build.json), then copies every file under src/
// that is not TypeScript (JSON weights, .cjs children, .mjs worker entries, .wasm, .sql, .jsonl, …) to the same
// place under dist/, so code that finds a file beside itself (`new URL('./x', import.meta.url)`) finds it there too.
// dist/ mirrors src/ at the same depth, so paths that climb to the package root (web/dist, samples/) hold in both.
//
//   node scripts/build.mjs                   build (always); a type error fails it
//   node scripts/build.mjs --if-stale        only when src/ or the build config changed since the last build
//   node scripts/build.mjs --keep-on-errors  keep what tsc emitted despite type errors (as tsx would run it):
//                                            the test runner's set-up builds so, and `npm test` type-checks anyway
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { bundleSearch } from './bundle-search.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const STAMP = '.build-digest';
const CONFIG = ['tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'scripts/bundle-search.mjs'];

/** Sources that are not part of the package: tests and the test helpers. */
const excluded = (rel) => /\.test\.ts$/.test(rel) || rel === 'testing' || rel.startsWith(`testing/`);
const isTypeScript = (name) => /\.(ts|tsx|mts|cts)$/.test(name);

function walk(dir, visit) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    const rel = relative(SRC, path).split('\\').join('/');
    if (excluded(rel)) continue;
    if (entry.isDirectory()) walk(path, visit);
    else visit(path, rel, entry.name);
  }
}

function sourceDigest() {
  const hash = createHash('sha256');
  walk(SRC, (path, rel) => hash.update(rel).update('\0').update(readFileSync(path)));
  for (const file of CONFIG)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(ROOT, file)));
  return hash.digest('hex');
}

const ifStale = process.argv.includes('--if-stale');
const keepOnErrors = process.argv.includes('--keep-on-errors');
const fresh = (digest) => existsSync(join(DIST, STAMP)) && readFileSync(join(DIST, STAMP), 'utf8') === digest;
let digest = sourceDigest();
if (ifStale && fresh(digest)) process.exit(0);

// One build at a time in a checkout (test runs started side by side each ask for one): the others wait, then find
// dist/ fresh. A lock older than two minutes is a crashed build's.
const LOCK = join(ROOT, '.build.lock');
for (;;) {
  try {
    mkdirSync(LOCK);
    break;
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs > 120_000)
      rmSync(LOCK, { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
process.on('exit', () => rmSync(LOCK, { recursive: true, force: true }));
digest = sourceDigest();
if (ifStale && fresh(digest)) process.exit(0);

// Built beside dist/ and swapped in whole, so a stale file of a moved module never survives and a process reading
// dist/ during a rebuild sees the old tree or the new one.
const out = join(ROOT, `dist.${process.pid}.tmp`);
rmSync(out, { recursive: true, force: true });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out], {
    cwd: ROOT,
    stdio: 'inherit',
  });
} catch {
  if (!keepOnErrors || !existsSync(join(out, 'index.js'))) {
    rmSync(out, { recursive: true, force: true });
    console.error('build: tsc failed (see above)');
    process.exit(1);
  }
  console.error('build: dist/ written despite the type errors above');
}
let assets = 0;
walk(SRC, (path, rel, name) => {
  if (isTypeScript(name)) return;
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  copyFileSync(path, join(out, rel));
  assets++;
});
// `evident search` runs a bundle of the CLI (scripts/bundle-search.mjs); without esbuild it runs the plain tree.
const bundled = await bundleSearch(out);
writeFileSync(join(out, STAMP), digest);
const old = join(ROOT, `dist.${process.pid}.old`);
if (existsSync(DIST)) renameSync(DIST, old);
renameSync(out, DIST);
rmSync(old, { recursive: true, force: true });
console.error(
  `build: dist/ written (${assets} non-TypeScript files copied from src/${bundled ? '; the search bundle' : '; no esbuild, no search bundle'})`,
);
