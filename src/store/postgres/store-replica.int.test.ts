import { afterAll } from 'vitest';
import { describeStoreConformance } from '../../testing/store-conformance/index.ts';
import { PostgresSchemaPool } from '../../testing/postgres-schema-pool.ts';
import { describeWith } from '../../testing/requirements.ts';
import { readReplicaDatabases } from '../../testing/read-replica-databases.ts';
import { openPostgresStore } from './store.ts';

// The routed store passes exactly the conformance suite: every write followed at once by a read of it (the suite
// does little else) is read back, whether the standby has replayed it yet or the read falls back to the primary.
// A pool schema's reset happens before the store opens, so the store's floor (the primary's WAL position at open)
// keeps every standby read from seeing the test before's rows.
describeWith(readReplicaDatabases(), 'postgres store with a read replica', ({ primary, standby }) => {
  const pool = new PostgresSchemaPool(primary, 'evident_replica');
  const schemas = new Map<string, string>();
  let previous: string | undefined;
  afterAll(() => pool.drop());

  describeStoreConformance('postgres + read replica', async (existing) => {
    if (!existing && previous !== undefined) pool.release(previous);
    const schema = existing ? schemas.get(existing.location) : await pool.take();
    if (!schema) throw new Error(`No schema for ${existing?.location}`);
    previous = schema;
    const store = await openPostgresStore(primary, {
      schema,
      readUrls: [standby],
      readReplicas: { checkIntervalMs: 100 },
    });
    schemas.set(store.location, schema);
    return store;
  });
});
