import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { describeStoreConformance } from '../../testing/store-conformance/index.ts';
import { openSqliteStore } from './store.ts';

const root = mkdtempSync(join(tmpdir(), 'evident-sqlite-conformance-'));
let opened = 0;

afterAll(() => rmSync(root, { recursive: true, force: true }));

// A real file per store, in a nested folder the store must create itself.
describeStoreConformance('sqlite', (existing) =>
  openSqliteStore(existing?.location ?? join(root, `store-${++opened}`, 'nested', 'evident.db')),
);
