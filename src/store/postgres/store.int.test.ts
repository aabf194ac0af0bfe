import { afterAll } from 'vitest';
import { describeStoreConformance } from '../../testing/store-conformance/index.ts';
import { openPostgresStore } from './store.ts';
import { describeWithPostgres, dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';

describeWithPostgres('postgres store', (url) => {
  // A fresh schema per store; reopening a closed store's location finds its schema again.
  const schemas = new Map<string, string>();
  afterAll(() => dropSchemas(url, schemas.values()));

  describeStoreConformance('postgres', async (existing) => {
    const schema = existing ? schemas.get(existing.location) : freshSchema();
    if (!schema) throw new Error(`No schema for ${existing?.location}`);
    const store = await openPostgresStore(url, { schema });
    schemas.set(store.location, schema);
    return store;
  });
});
