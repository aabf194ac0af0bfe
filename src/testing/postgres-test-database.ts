import { randomBytes } from 'node:crypto';
import { describeWith, postgresDatabase } from './requirements.ts';
import { dropPostgresStore, withSchema } from '../store/postgres/drop-store.ts';

/**
 * The Postgres the integration tests use: `EVIDENT_TEST_DATABASE_URL`. Without it the tests are skipped with one
 * summary line, except under CI, where a missing database is a failure (src/testing/requirements.ts).
 */
const testDatabase = postgresDatabase();

/** Runs `body` as a describe block on the test database's URL, or skips / fails it as above. */
export function describeWithPostgres(name: string, body: (url: string) => void): void {
  describeWith(testDatabase, name, body);
}

/** A fresh schema name per store, so test runs (and parallel test files) never see each other's data. */
export const freshSchema = (prefix = 'evident_test'): string => `${prefix}_${randomBytes(5).toString('hex')}`;

/** Drops the stores a test run created, with their table schemas and reader roles. */
export async function dropSchemas(url: string, schemas: Iterable<string>): Promise<void> {
  for (const schema of schemas) await dropPostgresStore(withSchema(url, schema));
}
