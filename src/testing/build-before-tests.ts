import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { buildWeb } from '../../scripts/ensure-web-build.ts';

/**
 * Vitest's global set-up: brings dist/ up to date with src/ before any test runs, because the CLI's tests start
 * `bin/evident.js`, which runs the compiled code. A no-op when nothing changed since the last build; with type
 * errors it still writes what compiles (as tsx would run it): `npm test` type-checks separately.
 */
export async function setup(): Promise<void> {
  execFileSync(
    process.execPath,
    [resolve(import.meta.dirname, '../../scripts/build.mjs'), '--if-stale', '--keep-on-errors'],
    {
      stdio: 'inherit',
    },
  );
  // Under CI the web UI is built here as well, before any file runs: the browser tests would each build it when stale,
  // and a build empties web/dist while another file (running beside it) serves it or packs the package.
  // (`CI` read as requirements.ts reads it, without importing vitest into the main process.)
  if (!['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase())) await buildWeb({ quiet: true });
}
