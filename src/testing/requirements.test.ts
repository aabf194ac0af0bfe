import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { summarizeRequirements } from './requirements-reporter.ts';
import { chromiumBrowser, postgresDatabase, sharedDataset } from './requirements.ts';

describe('requirement detection', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-requirements-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));
  afterEach(() => vi.unstubAllEnvs());

  it('finds Chromium only as an executable at EVIDENT_TEST_CHROMIUM, and names the path it looked at', async () => {
    const browser = join(dir, 'chromium');
    await writeFile(browser, '#!/bin/sh\n');
    vi.stubEnv('EVIDENT_TEST_CHROMIUM', browser);
    expect(chromiumBrowser().missing).toBe(`Chromium not found at ${browser}`);
    await chmod(browser, 0o755);
    expect(chromiumBrowser()).toMatchObject({ value: browser, missing: undefined });
    vi.stubEnv('EVIDENT_TEST_CHROMIUM', join(dir, 'no-such-chromium'));
    expect(chromiumBrowser().hint).toMatch(/^apt-get install chromium/);
    expect(chromiumBrowser().missing).toMatch(/no-such-chromium$/);
  });

  it('takes the test database from EVIDENT_TEST_DATABASE_URL, with a parseable stand-in when it is unset', () => {
    vi.stubEnv('EVIDENT_TEST_DATABASE_URL', 'postgres://u@db:5432/x');
    expect(postgresDatabase()).toMatchObject({ value: 'postgres://u@db:5432/x', missing: undefined });
    vi.stubEnv('EVIDENT_TEST_DATABASE_URL', '');
    const unset = postgresDatabase();
    expect(unset.missing).toBe('EVIDENT_TEST_DATABASE_URL is not set');
    expect(() => new URL(unset.value)).not.toThrow();
    expect(unset.hint).toContain('start-postgres.sh');
  });

  it('names the missing dataset, or the missing shared folder', () => {
    expect(sharedDataset('no-such-dataset').missing).toMatch(/^\.\.\/shared\/datasets(\/no-such-dataset)? missing$/);
  });
});

describe('the requirements summary', () => {
  const datasetsMissing = {
    kind: 'dataset',
    missing: '../shared/datasets missing',
    hint: 'place the shared folder beside the checkout',
  };
  const noChromium = {
    kind: 'browser',
    missing: 'Chromium not found at /usr/bin/chromium',
    hint: 'apt-get install chromium',
  };

  it('prints one line per missing requirement, counting its skipped tests and listing which datasets', () => {
    const lines = summarizeRequirements([
      { requirement: { ...datasetsMissing, detail: 'scifact' }, state: 'skipped' },
      { requirement: { ...datasetsMissing, detail: 'musique' }, state: 'skipped' },
      { requirement: { ...datasetsMissing, detail: 'musique' }, state: 'skipped' },
      ...Array.from({ length: 12 }, () => ({ requirement: noChromium, state: 'skipped' })),
    ]);
    expect(lines).toEqual([
      'skipped 12 browser tests: Chromium not found at /usr/bin/chromium — apt-get install chromium',
      'skipped 3 dataset tests (musique, scifact): ../shared/datasets missing — place the shared folder beside the checkout',
    ]);
  });

  it('says a requirement missing under CI failed, and names no detail the reason already names', () => {
    const model = {
      kind: 'model',
      detail: 'tiny.gguf',
      missing: '../shared/models/tiny.gguf missing',
      hint: 'place the shared folder',
    };
    expect(summarizeRequirements([{ requirement: model, state: 'failed' }])).toEqual([
      'CI skips nothing: failed 1 model test: ../shared/models/tiny.gguf missing — place the shared folder',
    ]);
  });
});
