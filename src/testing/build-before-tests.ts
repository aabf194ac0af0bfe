import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Vitest's global set-up: brings dist/ up to date with src/ before any test runs, because the CLI's tests start
 * `bin/evident.js`, which runs the compiled code. A no-op when nothing changed since the last build; with type
 * errors it still writes what compiles (as tsx would run it): `npm test` type-checks separately.
 */
export function setup(): void {
  execFileSync(
    process.execPath,
    [resolve(import.meta.dirname, '../../scripts/build.mjs'), '--if-stale', '--keep-on-errors'],
    {
      stdio: 'inherit',
    },
  );
}
