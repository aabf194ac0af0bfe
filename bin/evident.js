#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm install` in a checkout and `npm test` run).
// EVIDENT_DEV=1 runs the TypeScript sources through tsx instead, with no build step (a checkout only).
import { existsSync } from 'node:fs';
import { commandOf } from './command-of.js';

const dev = process.env.EVIDENT_DEV === '1';
let main;
if (dev) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
} else {
  try {
    // `evident search` runs the CLI's bundle when the build made one (scripts/bundle-search.mjs): the same code in a
    // few files, so a search starts sooner.
    const bundled = new URL('../dist/cli-bundle/main.js', import.meta.url);
    const search = commandOf(process.argv.slice(2)) === 'search' && existsSync(bundled);
    ({ main } = await import(search ? bundled.href : '../dist/cli/main.js'));
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/cli/main.js')) throw error;
    process.stderr.write('evident: dist/ is missing: run `npm run build` (or set EVIDENT_DEV=1 to run the sources)\n');
    process.exit(1);
  }
}
process.exitCode = await main(process.argv.slice(2));
