// Entry of an ingestion worker thread. A worker does not inherit loader hooks that the parent registered through
// tsx's API (bin/evident.js) or that a test runner installed, so it registers tsx itself, then loads the worker.
import { register } from 'tsx/esm/api';

register();
await import('./ingest-worker.ts');
