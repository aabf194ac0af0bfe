import type { Requirement } from './requirements.ts';

/**
 * What the read-replica tests need: a primary (`EVIDENT_TEST_DATABASE_URL`) and a streaming hot standby of it
 * (`EVIDENT_TEST_DATABASE_READ_URL`, which `.ci/run` starts). Without them the tests skip with one line (CI fails).
 */
export function readReplicaDatabases(): Requirement<{ primary: string; standby: string }> {
  const primary = process.env.EVIDENT_TEST_DATABASE_URL;
  const standby = process.env.EVIDENT_TEST_DATABASE_READ_URL;
  return {
    kind: 'PostgreSQL read replica',
    value: { primary: primary ?? 'postgres://localhost/unset', standby: standby ?? 'postgres://localhost/unset' },
    missing: !primary
      ? 'EVIDENT_TEST_DATABASE_URL is not set'
      : !standby
        ? 'EVIDENT_TEST_DATABASE_READ_URL is not set'
        : undefined,
    hint: 'export EVIDENT_TEST_DATABASE_READ_URL=$(scripts/start-postgres-replica.sh | tail -n 1) (after ../shared/scripts/start-postgres.sh)',
  };
}
