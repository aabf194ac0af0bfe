import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { loadConfig } from './load-config.ts';

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'evident-read-urls-'));
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

describe('EVIDENT_DATABASE_READ_URLS', () => {
  it('is a comma-separated list of hot standbys; blanks are dropped and an empty list is unset', () => {
    const env = {
      EVIDENT_DATABASE_URL: 'postgres://db/rag',
      EVIDENT_DATABASE_READ_URLS: ' postgres://r1:5432/rag, ,postgresql://u:p@r2/rag ',
    };
    expect(loadConfig({ cwd, env }).databaseReadUrls).toEqual(['postgres://r1:5432/rag', 'postgresql://u:p@r2/rag']);
    expect(loadConfig({ cwd, env: { EVIDENT_DATABASE_READ_URLS: ' , ' } }).databaseReadUrls).toBeUndefined();
  });

  it('refuses a malformed URL with a ConfigError that names the variable and the expected form', () => {
    for (const bad of ['mysql://r1/rag', 'postgres://', 'r1:5432']) {
      let caught: unknown;
      try {
        loadConfig({ cwd, env: { EVIDENT_DATABASE_READ_URLS: `postgres://r0/rag,${bad}` } });
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.isInstance(caught), bad).toBe(true);
      const { message, hint } = caught as ConfigError;
      expect(message).toContain('databaseReadUrls.1');
      expect(message).toContain('postgres://user:password@replica:5432/database');
      expect(hint).toContain('EVIDENT_DATABASE_READ_URLS');
    }
  });

  it("takes the replicas' lag bound and check interval from EVIDENT_DATABASE_REPLICA_* and bounds them", () => {
    expect(loadConfig({ cwd, env: {} }).database).toEqual({ replicaMaxLagMs: 5000, replicaCheckIntervalMs: 1000 });
    const env = { EVIDENT_DATABASE_REPLICA_MAX_LAG_MS: '250', EVIDENT_DATABASE_REPLICA_CHECK_INTERVAL_MS: '200' };
    expect(loadConfig({ cwd, env }).database).toEqual({ replicaMaxLagMs: 250, replicaCheckIntervalMs: 200 });
    expect(() => loadConfig({ cwd, env: { EVIDENT_DATABASE_REPLICA_CHECK_INTERVAL_MS: '0' } })).toThrow(
      /replicaCheckIntervalMs/,
    );
  });
});
