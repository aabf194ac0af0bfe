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
    expect(loadConfig({ cwd, env: {} }).runs).toEqual({ heartbeatMs: 5_000, leaseMs: 20_000 });
    expect(loadConfig({ cwd, env: { EVIDENT_RUN_HEARTBEAT_MS: '250', EVIDENT_RUN_LEASE_MS: '1500' } }).runs).toEqual({ heartbeatMs: 250, leaseMs: 1_500 });
  });

  it('refuse a lease shorter than three heartbeats, naming the key', () => {
    expect(() => loadConfig({ cwd, env: { EVIDENT_RUN_HEARTBEAT_MS: '1000', EVIDENT_RUN_LEASE_MS: '2000' } })).toThrow(/runs\.leaseMs must be at least 3 × runs\.heartbeatMs/);
    expect(() => loadConfig({ cwd, env: { EVIDENT_RUN_HEARTBEAT_MS: '10' } })).toThrow(/runs\.heartbeatMs/);
  });
});
