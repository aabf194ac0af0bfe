import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/index.ts';
import { checkResultBytes, resolveTableQueryLimits, valueBytes } from './table-query-limits.ts';

describe('table query limits', () => {
  it('default the byte bounds to the config defaults, and read them from EVIDENT_TABLE_* variables', () => {
    const config = loadConfig({ env: {} });
    expect(config.tables).toEqual({
      maxRows: 200,
      timeoutMs: 5000,
      maxResultBytes: 1_048_576,
      maxValueBytes: 262_144,
      maxMemoryBytes: 536_870_912,
      maxQueuedPerUser: 32,
    });
    const { maxRows, timeoutMs, ...bytes } = config.tables;
    expect(resolveTableQueryLimits({ maxRows, timeoutMs })).toEqual({ maxRows, timeoutMs, ...bytes });
    const env = {
      EVIDENT_TABLE_MAX_RESULT_BYTES: '4096',
      EVIDENT_TABLE_MAX_VALUE_BYTES: '1024',
      EVIDENT_TABLE_TIMEOUT_MS: '250',
      EVIDENT_TABLE_MAX_QUEUED_PER_USER: '3',
    };
    expect(loadConfig({ env }).tables).toMatchObject({
      maxResultBytes: 4096,
      maxValueBytes: 1024,
      timeoutMs: 250,
      maxQueuedPerUser: 3,
    });
    expect(() => loadConfig({ env: { EVIDENT_TABLE_MAX_VALUE_BYTES: '2000000' } })).toThrow(/maxValueBytes/);
    expect(() => loadConfig({ env: { EVIDENT_TABLE_MAX_MEMORY_BYTES: '1000' } })).toThrow(
      /EVIDENT_TABLE_MAX_MEMORY_BYTES|maxMemoryBytes/,
    );
  });

  it('count text as UTF-8, the way the result is written out, without copying long strings', () => {
    for (const text of ['', 'abc', 'é', '漢字', '😀', 'a\ud800b', '\udc00', 'x\ud83d']) {
      expect(valueBytes(text), JSON.stringify(text)).toBe(Buffer.byteLength(text));
      const long = text.repeat(600);
      expect(valueBytes(long), `${JSON.stringify(text)} × 600`).toBe(Buffer.byteLength(long));
    }
    expect(valueBytes(new Uint8Array(10))).toBe(10);
    expect(valueBytes(3.5)).toBe(8);
    expect(valueBytes(null)).toBe(1);
  });

  it('stop at the first value over its bound, then at the first byte over the result bound', () => {
    const limits = { maxResultBytes: 100, maxValueBytes: 40 };
    const bounds = { ...resolveTableQueryLimits({ maxRows: 10, timeoutMs: 1000 }), ...limits };
    expect(() => checkResultBytes(['a'], [['x'.repeat(40)], ['y'.repeat(40)]], bounds)).not.toThrow();
    expect(() => checkResultBytes(['a'], [['x'.repeat(41)]], bounds)).toThrow(
      expect.objectContaining({ code: 'query_too_large', details: { bound: 'value', limitBytes: 40 } }),
    );
    expect(() => checkResultBytes(['a'], [['x'.repeat(40)], ['y'.repeat(40)], ['z'.repeat(20)]], bounds)).toThrow(
      expect.objectContaining({ details: { bound: 'result', limitBytes: 100 } }),
    );
  });
});
