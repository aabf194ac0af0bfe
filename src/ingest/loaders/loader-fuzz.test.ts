import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { ERROR_CODES, IngestError, type ErrorCode } from '../../errors/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import type { Logger } from '../../logging/logger.ts';
import { buildDocx } from '../../testing/docx-builder.ts';
import { buildOdf, odfTable } from '../../testing/odf-builder.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { buildPptx } from '../../testing/pptx-builder.ts';
import { mutants as mutate } from '../../testing/file-mutations.ts';
import { buildXlsx } from '../../testing/xlsx-builder.ts';
import { loaderFor } from './index.ts';

/** One valid file of each type, with text, headings, tables and (Markdown) front matter for mutations to break. */
const SEEDS: Record<string, Buffer> = {
  'doc.pdf': buildPdf([
    [
      { text: 'Supply Agreement CT-2099', size: 18, bold: true },
      { text: 'The supplier delivers parts every week.' },
      { text: 'Fees are due in 30 days.', gapBefore: 8 },
    ],
    [{ text: '2 Termination', size: 14, bold: true }, { text: 'Either party may end it with notice.' }],
  ]),
  'doc.docx': buildDocx([
    { heading: 1, text: 'Supplier contract' },
    'This agreement is contract CT-2024-0193.',
    {
      table: [
        ['Item', 'Fee'],
        ['Setup', '1,250.50'],
      ],
    },
  ]),
  'doc.xlsx': buildXlsx([
    {
      name: 'Orders',
      dimension: 'A1:B3',
      sheetData:
        '<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>amount</t></is></c></row>' +
        '<row r="2"><c r="A2" t="inlineStr"><is><t>A-1</t></is></c><c r="B2"><v>12.5</v></c></row>' +
        '<row r="3"><c r="A3" t="inlineStr"><is><t>A-2</t></is></c><c r="B3"><v>99</v></c></row>',
    },
  ]),
  'doc.pptx': buildPptx([
    { title: 'Quarterly review', body: ['Revenue grew 12%.'], notes: ['Mention the renewal.'] },
    {
      title: 'Sales',
      body: [
        {
          table: [
            ['Region', 'Q1'],
            ['North', '1250'],
          ],
        },
      ],
    },
  ]),
  'doc.odt': buildOdf(
    'text',
    `<text:h text:outline-level="1">Policy</text:h><text:p>Visitors park in <text:span>bay P7</text:span>.</text:p>${odfTable(
      'Bays',
      [
        ['Bay', 'Use'],
        ['P7', 'Visitors'],
      ],
    )}`,
  ),
  'doc.ods': buildOdf(
    'spreadsheet',
    '<table:table table:name="Orders"><table:table-row><table:table-cell office:value-type="string"><text:p>id</text:p></table:table-cell></table:table-row>' +
      '<table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="float" office:value="12.5"><text:p>12.5</text:p></table:table-cell></table:table-row>' +
      '<table:table-row table:number-rows-repeated="1048573"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>',
  ),
  'doc.odp': buildOdf(
    'presentation',
    '<draw:page draw:name="a"><draw:frame presentation:class="title"><draw:text-box><text:p>Kickoff</text:p></draw:text-box></draw:frame>' +
      '<presentation:notes><draw:frame presentation:class="notes"><draw:text-box><text:p>Phase two is not funded.</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>',
  ),
  'doc.html': Buffer.from(
    '<!doctype html><html><head><title>Policy</title></head><body><nav>menu</nav><main><h1>Parking</h1><p>Visitors park in bay P7.</p>' +
      '<table><tr><th>Bay</th><th>Use</th></tr><tr><td>P7</td><td>Visitors</td></tr></table><article><p>Note &amp; more.</p></article></main></body></html>',
  ),
  'doc.csv': Buffer.from('order_id;amount;shipped\n"A-1";12,5;true\n"A-2";"9""9";false\n'),
  'doc.md': Buffer.from(
    '---\ntitle: Handbook\ntags: [hr, leave]\n---\n# Leave\n\nStaff carry over **5 days**.\n\n| Kind | Days |\n| --- | --- |\n| Annual | 25 |\n\n- one\n- two\n\n```\ncode\n```\n',
  ),
};

/** Mutated versions of a seed file, the same for a given seed number so a failure can be replayed. */
const mutants = (name: string, seed: number, count: number) => mutate(SEEDS[name] as Buffer, name, seed, count);

const INGEST_CODES: readonly ErrorCode[] = ERROR_CODES.filter(
  (code) => code.startsWith('file_') || code.startsWith('pdf_') || code.startsWith('acl_'),
);

describe('loaders on mutated and truncated files (seeded)', () => {
  it.each(Object.keys(SEEDS).map((name, index) => [name, 1000 + index] as const))(
    '%s: each case loads or fails with an IngestError',
    async (name, seed) => {
      const loader = loaderFor(name);
      expect(loader).toBeDefined();
      let failures = 0;
      for (const { bytes, label } of mutants(name, seed, 50)) {
        const result = await loader!.load(bytes, `/fuzz/${name}`).then(
          (doc) => ({ doc }),
          (error: unknown) => ({ error }),
        );
        if ('error' in result) {
          failures += 1;
          expect(IngestError.isInstance(result.error), `${label}: ${String(result.error)}`).toBe(true);
          expect(INGEST_CODES, label).toContain((result.error as IngestError).code);
        } else {
          expect(Array.isArray(result.doc.blocks), label).toBe(true);
          for (const block of result.doc.blocks) expect(typeof block.text, label).toBe('string');
        }
      }
      expect(failures).toBeGreaterThan(0); // the mutations do break files
    },
  );
});

describe('a failed mutant leaves the stored, restricted version as it was', () => {
  let dir: string;
  let evident: Evident;
  const logged: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn() {},
    error: (message, fields) => void logged.push(`${message} ${JSON.stringify(fields)}`),
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-fuzz-'));
    evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }), { logger });
  });

  afterAll(async () => {
    await evident?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(Object.keys(SEEDS).map((name, index) => [name, 2000 + index] as const))(
    '%s through the ingestor',
    async (name, seed) => {
      const path = join(dir, name);
      await writeFile(path, SEEDS[name] as Buffer);
      await writeFile(`${path}.acl.json`, '{"acl": ["group:legal"]}');
      const [first] = (await evident.ingestor.ingest([path])).outcomes;
      expect(first?.status, JSON.stringify(first)).toBe('added');
      let stored = await evident.store.getDocument(name);
      for (const { bytes, label } of mutants(name, seed, 15)) {
        await writeFile(path, bytes);
        const [outcome] = (await evident.ingestor.ingest([path])).outcomes;
        if (outcome?.status === 'failed') {
          expect(INGEST_CODES, `${label}: ${JSON.stringify(outcome.error)}`).toContain(outcome.error?.code);
          expect(await evident.store.getDocument(name), label).toEqual(stored);
        } else {
          stored = await evident.store.getDocument(name);
          expect(stored?.acl, label).toEqual(['group:legal']);
        }
      }
      expect(logged).toEqual([]); // no loader bug, no store failure
    },
  );
});
