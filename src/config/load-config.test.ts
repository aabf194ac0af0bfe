import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { loadConfig } from './load-config.ts';
import { resolveRetrievalSettings } from './schema.ts';

let cwd: string;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'evident-config-'));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('uses the defaults with nothing set', () => {
    const config = loadConfig({ cwd, env: {} });
    expect(config).toMatchObject({
      db: './.evident/evident.db',
      embedder: 'offline',
      reranker: 'none',
      chunk: { size: 1200, overlap: 150 },
    });
    expect(config.retrieval).toMatchObject({ rrfK: 60, topK: 5, rerankDepth: 50 });
  });

  it('layers file < env < flags, merging nested objects', async () => {
    await writeFile(
      join(cwd, 'evident.config.json'),
      JSON.stringify({ db: 'file.db', chunk: { size: 900, overlap: 100 }, retrieval: { topK: 7 } }),
    );
    const config = loadConfig({
      cwd,
      env: { EVIDENT_DB: 'env.db', EVIDENT_CHUNK_OVERLAP: '50' },
      flags: { chunk: { size: 2000 } },
    });
    expect(config.db).toBe('env.db');
    expect(config.chunk).toEqual({ size: 2000, overlap: 50 });
    expect(config.retrieval.topK).toBe(7);
    expect(loadConfig({ cwd, env: { EVIDENT_DB: 'env.db' }, flags: { db: 'flag.db' } }).db).toBe('flag.db');
  });

  it('reads the server admin key from EVIDENT_ADMIN_KEY and refuses a short one', () => {
    expect(loadConfig({ cwd, env: {} }).adminKey).toBeUndefined();
    expect(loadConfig({ cwd, env: { EVIDENT_ADMIN_KEY: 'a-long-enough-admin-key' } }).adminKey).toBe(
      'a-long-enough-admin-key',
    );
    expect(() => loadConfig({ cwd, env: { EVIDENT_ADMIN_KEY: 'short' } })).toThrow(/adminKey/);
  });

  it('names the field and the sources when a value is invalid', () => {
    const error = (() => {
      try {
        loadConfig({ cwd, env: { EVIDENT_CHUNK_SIZE: 'big' } });
      } catch (caught) {
        return caught as ConfigError;
      }
    })();
    expect(error?.toLine()).toMatch(
      /^Invalid configuration at chunk\.size: .* Check the flag, EVIDENT_CHUNK_SIZE or evident\.config\.json\.$/,
    );
    expect(() => loadConfig({ cwd, env: {}, flags: { chunk: { size: 1000, overlap: 600 } } })).toThrow(
      /chunk\.overlap must be less than half/,
    );
  });

  it('rejects unknown keys and unreadable files with a ConfigError', async () => {
    await writeFile(join(cwd, 'evident.config.json'), '{"dbb": "x"}');
    expect(() => loadConfig({ cwd, env: {} })).toThrow(ConfigError);
    await writeFile(join(cwd, 'evident.config.json'), '{not json');
    expect(() => loadConfig({ cwd, env: {} })).toThrow(/Cannot read .*evident\.config\.json/);
    expect(() => loadConfig({ cwd, env: {}, configFile: 'missing.json' })).toThrow(
      /Config file .*missing\.json does not exist/,
    );
  });

  it('fuses the vector channel by default only for a semantic embedder', () => {
    const config = loadConfig({ cwd, env: {} });
    expect(resolveRetrievalSettings(config, { semantic: false }).channels).toEqual(['bm25']);
    expect(resolveRetrievalSettings(config, { semantic: true }).channels).toEqual(['bm25', 'vector']);
    const explicit = loadConfig({ cwd, env: {}, flags: { retrieval: { channels: ['vector'] } } });
    expect(resolveRetrievalSettings(explicit, { semantic: false }).channels).toEqual(['vector']);
  });
});
