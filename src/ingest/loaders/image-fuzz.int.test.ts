import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { ERROR_CODES, IngestError, type ErrorCode } from '../../errors/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import type { Logger } from '../../logging/logger.ts';
import { buildDocx } from '../../testing/docx-builder.ts';
import { mutants } from '../../testing/file-mutations.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { describeWith, ocrTools } from '../../testing/requirements.ts';
import { buildTiff, readPgm } from '../../testing/tiff-builder.ts';
import { loaderFor } from './index.ts';

// What a broken image may fail with: a file error (corrupt, over a bound, empty), or tesseract's output bound.
const CODES: readonly ErrorCode[] = [...ERROR_CODES.filter((code) => code.startsWith('file_')), 'ocr_failed'];

let dir: string;
const seeds: Record<string, Buffer> = {};

/** A page of text rendered small (60 dpi: 510 × 660 pixels), so each mutant is one quick tesseract run. */
async function render(name: string, format: string[]): Promise<string> {
  const pdf = join(dir, `${name}.pdf`);
  await writeFile(pdf, buildPdf([[{ text: 'Berth seven is leased to the Aurora line.', size: 20 }]]));
  execFileSync('pdftoppm', ['-r', '60', '-gray', '-singlefile', ...format, pdf, join(dir, name)], { timeout: 30_000 });
  return join(dir, name);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-image-fuzz-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describeWith(ocrTools(), 'image loaders on mutated and truncated files (seeded)', () => {
  beforeAll(async () => {
    seeds['scan.png'] = await readFile(`${await render('png', ['-png'])}.png`);
    seeds['scan.jpg'] = await readFile(`${await render('jpeg', ['-jpeg'])}.jpg`);
    const page = readPgm(await readFile(`${await render('pgm', [])}.pgm`));
    seeds['scan.tif'] = buildTiff([page, page]);
    // Rendered at 100 dpi, the page is large enough to be read as a picture of the DOCX.
    execFileSync('pdftoppm', ['-r', '100', '-gray', '-png', '-singlefile', join(dir, 'png.pdf'), join(dir, 'picture')]);
    seeds['pictures.docx'] = buildDocx(['A lease.', { picture: await readFile(join(dir, 'picture.png')) }]);
  }, 60_000);

  it.each(['scan.png', 'scan.jpg', 'scan.tif', 'pictures.docx'].map((name, index) => [name, 3000 + index] as const))(
    '%s: each case loads or fails with a file error',
    async (name, seed) => {
      const loader = loaderFor(name)!;
      let failures = 0;
      for (const { bytes, label } of mutants(seeds[name]!, name, seed, 25)) {
        const result = await loader.load(bytes, `/fuzz/${name}`).then(
          (doc) => ({ doc }),
          (error: unknown) => ({ error }),
        );
        if ('error' in result) {
          failures += 1;
          expect(IngestError.isInstance(result.error), `${label}: ${String(result.error)}`).toBe(true);
          expect(CODES, `${label}: ${String(result.error)}`).toContain((result.error as IngestError).code);
        } else {
          for (const block of result.doc.blocks) expect(typeof block.text, label).toBe('string');
        }
      }
      expect(failures).toBeGreaterThan(0);
    },
    120_000,
  );

  describeIngest();
});

/** Through the ingestor: a failed mutant leaves the stored version, and its ACL, as they were. */
function describeIngest(): void {
  let evident: Evident;
  const logged: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn() {},
    error: (message, fields) => void logged.push(`${message} ${JSON.stringify(fields)}`),
  };
  beforeAll(async () => {
    evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }), { logger });
  });
  afterAll(async () => {
    await evident?.close();
  });

  it.each(['scan.png', 'scan.tif'].map((name, index) => [name, 4000 + index] as const))(
    '%s through the ingestor: nothing half-stored',
    async (name, seed) => {
      const path = join(dir, name);
      await writeFile(path, seeds[name]!);
      await writeFile(`${path}.acl.json`, '{"acl": ["group:legal"]}');
      const [first] = (await evident.ingestor.ingest([path])).outcomes;
      expect(first?.status, JSON.stringify(first)).toBe('added');
      let stored = await evident.store.getDocument(name);
      for (const { bytes, label } of mutants(seeds[name]!, name, seed, 10)) {
        await writeFile(path, bytes);
        const [outcome] = (await evident.ingestor.ingest([path])).outcomes;
        if (outcome?.status === 'failed') {
          expect(CODES, `${label}: ${JSON.stringify(outcome.error)}`).toContain(outcome.error?.code);
          expect(await evident.store.getDocument(name), label).toEqual(stored);
        } else {
          stored = await evident.store.getDocument(name);
          expect(stored?.acl, label).toEqual(['group:legal']);
        }
      }
      expect(logged).toEqual([]);
    },
    120_000,
  );
}
