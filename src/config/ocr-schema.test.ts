import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { loadConfig } from './index.ts';

const load = (ocr: unknown) =>
  loadConfig({ env: {}, cwd: '/nonexistent-evident-config', flags: { ingest: { ocr } as never } });

describe('ingest.ocr', () => {
  it('defaults to OCR in English at 300 dpi, bounded', () => {
    expect(load(undefined).ingest.ocr).toEqual({
      enabled: true,
      languages: ['eng'],
      dpi: 300,
      maxPagePixels: 25_000_000,
      maxImagePixels: 50_000_000,
      timeoutMs: 120_000,
      maxPages: 500,
    });
  });

  it('takes languages and bounds', () => {
    expect(load({ languages: ['eng', 'chi_sim'], dpi: 150, enabled: false }).ingest.ocr).toMatchObject({
      languages: ['eng', 'chi_sim'],
      dpi: 150,
      enabled: false,
    });
  });

  it('refuses a language that is not a tesseract name (an option, a path, a join), no language, and unbounded values', () => {
    for (const ocr of [
      { languages: ['--psm'] },
      { languages: ['../eng'] },
      { languages: ['eng+fra'] },
      { languages: [] },
      { dpi: 5000 },
      { timeoutMs: 0 },
      { maxPages: 0 },
      { maxImagePixels: 2_000_000_000 },
      { colour: true },
    ]) {
      expect(() => load(ocr), JSON.stringify(ocr)).toThrow(ConfigError);
    }
  });
});
