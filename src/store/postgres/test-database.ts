import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { dropPostgresStore, withSchema } from './drop-store.ts';

/**
 * The Postgres the integration tests use: `EVIDENT_TEST_DATABASE_URL`. Without it the tests are skipped with a
 * reason, except in CI (`CI` set), where a missing database is a failure, never a silent skip.
 */
export const TEST_DATABASE_URL = process.env.EVIDENT_TEST_DATABASE_URL;

/** Runs `body` as a describe block when a test database is configured; otherwise skips or fails as above. */
export function describeWithPostgres(name: string, body: (url: string) => void): void {
  const url = TEST_DATABASE_URL;
  if (url) {
    describe(name, () => body(url));
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      it('needs EVIDENT_TEST_DATABASE_URL in CI', () => {
        throw new Error('EVIDENT_TEST_DATABASE_URL is not set: CI must start Postgres (../shared/scripts/start-postgres.sh) and export it.');
      });
    });
    return;
  }
  describe.skip(`${name} (skipped: set EVIDENT_TEST_DATABASE_URL=postgres://… to run against a real PostgreSQL with pgvector)`, () => {
    it('runs against PostgreSQL', () => undefined);
  });
}

/** A fresh schema name per store, so test runs (and parallel test files) never see each other's data. */
export const freshSchema = (prefix = 'evident_test'): string => `${prefix}_${randomBytes(5).toString('hex')}`;

/** Drops the stores a test run created, with their table schemas and reader roles. */
export async function dropSchemas(url: string, schemas: Iterable<string>): Promise<void> {
  for (const schema of schemas) await dropPostgresStore(withSchema(url, schema));
}
