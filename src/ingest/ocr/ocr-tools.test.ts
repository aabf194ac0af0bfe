import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWith, ocrTools } from '../../testing/requirements.ts';
import { detectOcrTools } from './ocr-tools.ts';

describe('detectOcrTools', () => {
  let bin: string;
  beforeAll(async () => {
    bin = await mkdtemp(join(tmpdir(), 'evident-ocr-bin-'));
  });
  afterAll(async () => {
    await rm(bin, { recursive: true, force: true });
  });

  it('finds nothing on a PATH without the tools', async () => {
    expect(await detectOcrTools({ PATH: bin })).toEqual({ pdftoppm: false, tesseract: false, languages: new Set() });
  });

  describeWith(ocrTools(), 'with the tools installed', () => {
    it('sees tools that appear on a PATH after a lookup missed them, and keeps a lookup that found them', async () => {
      const path = { PATH: bin };
      expect((await detectOcrTools(path)).tesseract).toBe(false);
      // "Installing" them: the real binaries, linked into the PATH's folder.
      for (const tool of ['tesseract', 'pdftoppm']) {
        await symlink(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
      }
      const found = await detectOcrTools(path);
      expect(found).toMatchObject({ pdftoppm: true, tesseract: true });
      expect([...found.languages]).toEqual(expect.arrayContaining(['eng', 'chi_sim']));
      expect(detectOcrTools(path)).toBe(detectOcrTools(path));
    });
  });
});
