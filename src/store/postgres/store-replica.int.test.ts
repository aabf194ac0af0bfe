import { afterAll } from 'vitest';
import { describeStoreConformance } from '../../testing/store-conformance/index.ts';
import { dropSchemas, freshSchema } from '../../testing/postgres-test-database.ts';
import { describeWith } from '../../testing/requirements.ts';
import { readReplicaDatabases } from '../../testing/read-replica-databases.ts';
import { openPostgresStore } from './store.ts';

// The routed store passes exactly the conformance suite: every write followed at once by a read of it (the suite
// does little else) is read back, whether the standby has replayed it yet or the read falls back to the primary.
describeWith(readReplicaDatabases(), 'postgres store with a read replica', ({ primary, standby }) => {
  const schemas = new Map<string, string>();
  afterAll(() => dropSchemas(primary, schemas.values()));

  describeStoreConformance('postgres + read replica', async (existing) => {
    const schema = existing ? schemas.get(existing.location) : freshSchema('evident_replica');
    if (!schema) throw new Error(`No schema for ${existing?.location}`);
    const store = await openPostgresStore(primary, {
      schema,
      readUrls: [standby],
      readReplicas: { checkIntervalMs: 100 },
    });
    schemas.set(store.location, schema);
    return store;
  });
});
