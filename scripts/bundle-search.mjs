// The CLI as one bundle for `evident search` (bin/evident.js runs it for that command): the compiled `cli/main.js`
// and every module of ours it reaches, with zod inlined, in `cli-bundle/` beside `cli/`. A search
// process then loads a few files instead of ~240 (resolving, reading and linking each one was most of its start-up).
// Modules loaded lazily (`await import(…)`) become chunks of their own, loaded as before only when a command needs
// them. Every other package stays external, and so do native addons, worker entries and files read beside a module:
// the bundle sits one folder below dist/, as cli/ does, so paths that climb to the package root still hold. Commands
// other than `search` keep running the unbundled tree (their workers and assets are found beside their modules).
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Packages inlined: ES modules of pure JavaScript loaded at every search (zod, by the config's validation: ~95 files).
 * A CommonJS package (commander) stays external, as its `require`s of Node's modules cannot run inside an ES bundle.
 */
const INLINED = new Set(['zod']);
export const BUNDLE_DIR = 'cli-bundle';

const packageOf = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

/**
 * Writes `<dist>/cli-bundle/main.js` (and its chunks) from `<dist>/cli/main.js`. Returns false, writing nothing, when
 * esbuild is not installed: bin/evident.js then runs the unbundled CLI for every command.
 */
export async function bundleSearch(dist) {
  let esbuild;
  try {
    esbuild = createRequire(import.meta.url)('esbuild');
  } catch {
    return false;
  }
  const outdir = join(dist, BUNDLE_DIR);
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { main: join(dist, 'cli', 'main.js') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'external-packages',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('node:') || !INLINED.has(packageOf(args.path)) ? { external: true } : undefined,
          );
        },
      },
    ],
  });
  return existsSync(join(outdir, 'main.js'));
}
