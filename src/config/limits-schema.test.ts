import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.ts';
import { limitBoundsSchema, limitEnvName, LIMITS_DEFAULTS, limitSetting, type LimitName } from './limits-schema.ts';

/** The configuration reference, generated from the schema (`config-docs.test.ts` keeps it in sync). */
const DOCS = readFileSync(fileURLToPath(new URL('../../docs/configuration.md', import.meta.url)), 'utf8');
const NAMES = Object.keys(limitBoundsSchema.shape) as LimitName[];

describe('request limits configuration', () => {
  it('reads every limit from its EVIDENT_* variable and names both in hints', () => {
    const env = Object.fromEntries(NAMES.map((name, i) => [limitEnvName(name), String(LIMITS_DEFAULTS[name] + i + 1)]));
    const limits = loadConfig({ env, cwd: '/nonexistent' }).limits;
    for (const [i, name] of NAMES.entries())
      expect([name, limits[name]]).toEqual([name, LIMITS_DEFAULTS[name] + i + 1]);
    expect(limitEnvName('maxBodyBytes')).toBe('EVIDENT_MAX_BODY_BYTES');
    expect(limitSetting('maxQueryTerms')).toBe('limits.maxQueryTerms (EVIDENT_MAX_QUERY_TERMS)');
  });

  it('refuses a limit out of its range at start-up, naming its variable', () => {
    expect(() => loadConfig({ env: { EVIDENT_MAX_BODY_BYTES: '0' }, cwd: '/nonexistent' })).toThrow(
      /limits\.maxBodyBytes/,
    );
    expect(() => loadConfig({ env: { EVIDENT_MAX_JSON_DEPTH: 'deep' }, cwd: '/nonexistent' })).toThrow(
      /limits\.maxJsonDepth/,
    );
    expect(() => loadConfig({ flags: { limits: { maxQueryTerms: 1e9 } }, cwd: '/nonexistent' })).toThrow(
      /limits\.maxQueryTerms/,
    );
  });

  it('is documented in docs/configuration.md with its variable, default and range', () => {
    for (const name of NAMES) {
      const number = limitBoundsSchema.shape[name].unwrap();
      const row = `| \`limits.${name}\` | \`${limitEnvName(name)}\` | ${LIMITS_DEFAULTS[name]} | ${number.minValue}–${number.maxValue} |`;
      expect(DOCS, row).toContain(row);
    }
  });
});
