// Entry of an ingestion worker thread. Built (dist/), the compiled worker sits beside this file and is loaded as is.
// From the sources, a worker does not inherit loader hooks that the parent registered through tsx's API
// (bin/evident.js with EVIDENT_DEV=1) or that a test runner installed, so it registers tsx itself, then loads the worker.
import { existsSync } from 'node:fs';

const compiled = new URL('./ingest-worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./ingest-worker.ts');
}
