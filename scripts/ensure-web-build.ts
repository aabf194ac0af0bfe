import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIR = join(ROOT, 'web');
const BUILT_INDEX = join(WEB_DIR, 'dist', 'index.html');
/** What the built UI is made from: its sources and config, what it imports of src/, and the dependency versions. */
const INPUTS = [
  join(WEB_DIR, 'src'),
  join(ROOT, 'src', 'domain'),
  join(ROOT, 'src', 'errors'),
  join(ROOT, 'src', 'server', 'schemas'),
  join(WEB_DIR, 'index.html'),
  join(WEB_DIR, 'vite.config.ts'),
  join(ROOT, 'package-lock.json'),
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** True when web/dist is missing or older than anything it is built from. */
export function webBuildIsStale(): boolean {
  if (!existsSync(BUILT_INDEX)) return true;
  const built = statSync(BUILT_INDEX).mtimeMs;
  return INPUTS.some((input) => newestMtime(input) > built);
}

/**
 * Builds web/ into web/dist with Vite (the same as `npm run build:web`) when it is missing or older than its sources.
 * One build at a time in a checkout: test files running side by side each ask for the UI, and a build empties
 * web/dist while a server another file started serves it; so the others wait for the lock, then find the build fresh.
 * A lock older than two minutes is a crashed build's.
 */
export async function buildWeb(options: { quiet?: boolean } = {}): Promise<void> {
  const lock = join(tmpdir(), `evident-web-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 16)}.lock`);
  if (!existsSync(lock) && !webBuildIsStale()) return;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 120_000) {
        rmSync(lock, { recursive: true, force: true });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    if (webBuildIsStale()) await viteBuild(options);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function viteBuild(options: { quiet?: boolean }): Promise<void> {
  const { build } = await import('vite');
  // Vite keeps a NODE_ENV it finds set (vitest sets `test`), and would then bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: WEB_DIR,
      configFile: join(WEB_DIR, 'vite.config.ts'),
      mode: 'production',
      logLevel: options.quiet ? 'error' : 'warn',
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

// `npm start` runs this file before the server: it builds the UI only when its sources changed since the last build.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  if (webBuildIsStale()) {
    process.stderr.write('Building the web UI (web/ → web/dist)…\n');
    await buildWeb();
  }
}
