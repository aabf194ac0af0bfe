import { afterAll } from 'vitest';
import { describeStoreConformance } from '../../testing/store-conformance/index.ts';
import { openPostgresStore } from './store.ts';
import { describeWithPostgres } from '../../testing/postgres-test-database.ts';
import { PostgresSchemaPool } from '../../testing/postgres-schema-pool.ts';

describeWithPostgres('postgres store', (url) => {
  // Each test's store is empty at the latest migration: a schema of the pool, reset to equal a freshly migrated one
  // once the suite closed the store of the test before. Reopening a closed store's location finds its schema again.
  const pool = new PostgresSchemaPool(url, 'evident_test');
  const schemas = new Map<string, string>();
  let previous: string | undefined;
  afterAll(() => pool.drop());

  describeStoreConformance('postgres', async (existing) => {
    if (!existing && previous !== undefined) pool.release(previous);
    const schema = existing ? schemas.get(existing.location) : await pool.take();
    if (!schema) throw new Error(`No schema for ${existing?.location}`);
    previous = schema;
    const store = await openPostgresStore(url, { schema });
    schemas.set(store.location, schema);
    return store;
  });
});
