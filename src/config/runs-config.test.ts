import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.ts';

// A folder without evident.config.json: only the defaults and the variables given apply.
const cwd = mkdtempSync(join(tmpdir(), 'evident-runs-config-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('run lease settings', () => {
  it('default to a 5 s heartbeat and a 20 s lease, and read EVIDENT_RUN_HEARTBEAT_MS and EVIDENT_RUN_LEASE_MS', () => {
    expect(loadConfig({ cwd, env: {} }).runs).toMatchObject({ heartbeatMs: 5_000, leaseMs: 20_000 });
    expect(
      loadConfig({ cwd, env: { EVIDENT_RUN_HEARTBEAT_MS: '250', EVIDENT_RUN_LEASE_MS: '1500' } }).runs,
    ).toMatchObject({ heartbeatMs: 250, leaseMs: 1_500 });
  });

  it('admit 64 runs at once and 16 per user by default, and read EVIDENT_RUNS_MAX_CONCURRENT(_PER_USER)', () => {
    expect(loadConfig({ cwd, env: {} }).runs).toMatchObject({ maxConcurrent: 64, maxConcurrentPerUser: 16 });
    const env = { EVIDENT_RUNS_MAX_CONCURRENT: '8', EVIDENT_RUNS_MAX_CONCURRENT_PER_USER: '2' };
    expect(loadConfig({ cwd, env }).runs).toMatchObject({ maxConcurrent: 8, maxConcurrentPerUser: 2 });
    expect(() => loadConfig({ cwd, env: { EVIDENT_RUNS_MAX_CONCURRENT: '0' } })).toThrow(/runs\.maxConcurrent/);
  });

  it('refuse a lease shorter than three heartbeats, naming the key', () => {
    expect(() => loadConfig({ cwd, env: { EVIDENT_RUN_HEARTBEAT_MS: '1000', EVIDENT_RUN_LEASE_MS: '2000' } })).toThrow(
      /runs\.leaseMs must be at least 3 × runs\.heartbeatMs/,
    );
    expect(() => loadConfig({ cwd, env: { EVIDENT_RUN_HEARTBEAT_MS: '10' } })).toThrow(/runs\.heartbeatMs/);
  });
});
