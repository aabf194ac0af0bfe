import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.ts';
import { LOCAL_OPERATOR } from '../../domain/index.ts';
import { createEvident, type Evident } from '../../evident.ts';
import { buildOdf, odfTable } from '../../testing/odf-builder.ts';
import { buildPptx } from '../../testing/pptx-builder.ts';

const LIMITS = { maxRows: 50, timeoutMs: 5_000 };
let dir: string;
let evident: Evident;

const frame = (kind: string, text: string) =>
  `<draw:frame presentation:class="${kind}"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evident-slides-'));
  const docs = join(dir, 'docs');
  await mkdir(docs);
  await writeFile(
    join(docs, 'review.pptx'),
    buildPptx([
      { file: 2, title: 'Quarterly review', body: ['Revenue grew 12% in the quarter.'] },
      {
        file: 1,
        title: 'Regional sales',
        body: [
          {
            table: [
              ['Region', 'Revenue'],
              ['North', '1250'],
              ['South', '980'],
            ],
          },
        ],
      },
      {
        file: 3,
        title: 'Next steps',
        body: ['Hire two engineers.'],
        notes: ['The board approved the hires on 3 March.'],
      },
    ]),
  );
  await writeFile(
    join(docs, 'budget.ods'),
    buildOdf(
      'spreadsheet',
      '<table:table table:name="Costs"><table:table-row><table:table-cell office:value-type="string"><text:p>item</text:p></table:table-cell>' +
        '<table:table-cell office:value-type="string"><text:p>cost</text:p></table:table-cell></table:table-row>' +
        '<table:table-row table:number-rows-repeated="3"><table:table-cell office:value-type="string"><text:p>licence</text:p></table:table-cell>' +
        '<table:table-cell office:value-type="currency" office:value="120.5"><text:p>120,50 €</text:p></table:table-cell></table:table-row>' +
        '<table:table-row table:number-rows-repeated="1048572"><table:table-cell table:number-columns-repeated="1024"/></table:table-row></table:table>',
    ),
  );
  await writeFile(
    join(docs, 'memo.odt'),
    buildOdf(
      'text',
      `<text:h text:outline-level="1">Travel policy</text:h><text:p>Economy class for flights under six hours.</text:p>${odfTable(
        'Allowances',
        [
          ['City', 'Per diem'],
          ['Paris', '95'],
        ],
      )}`,
    ),
  );
  await writeFile(
    join(docs, 'kickoff.odp'),
    buildOdf(
      'presentation',
      `<draw:page draw:name="a">${frame('title', 'Kickoff')}</draw:page><draw:page draw:name="b">${frame('title', 'Scope')}${frame('outline', 'Phase one covers the billing service.')}` +
        `<presentation:notes>${frame('notes', 'Say that phase two is not funded yet.')}</presentation:notes></draw:page>`,
    ),
  );
  evident = await createEvident(loadConfig({ flags: { db: join(dir, 'store.db') }, env: {}, cwd: dir }));
  const summary = await evident.ingestor.ingest([docs]);
  expect(summary.outcomes.map((outcome) => [outcome.docId, outcome.status]).sort()).toEqual([
    ['budget.ods', 'added'],
    ['kickoff.odp', 'added'],
    ['memo.odt', 'added'],
    ['review.pptx', 'added'],
  ]);
});

afterAll(async () => {
  await evident?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Every stored chunk of a document, in order. */
async function chunksOf(docId: string) {
  const ids = Array.from({ length: 40 }, (_, i) => `${docId}#${i}`);
  return (await evident.store.getChunks(ids, LOCAL_OPERATOR)).sort((a, b) => a.ordinal - b.ordinal);
}

describe('slides and OpenDocument through the ingestor into SQLite', () => {
  it('stores a deck with its slide count and each chunk at its slide, notes under their own heading', async () => {
    expect(await evident.store.getDocument('review.pptx')).toMatchObject({ type: 'pptx', pageCount: 3 });
    const chunks = await chunksOf('review.pptx');
    expect(chunks.map((chunk) => [chunk.page, chunk.headingPath])).toEqual([
      [1, ['Quarterly review']],
      [2, ['Regional sales']],
      [3, ['Next steps']],
    ]);
    expect(chunks[2]?.text).toContain('Speaker notes\n\nThe board approved the hires on 3 March.');
    expect(chunks[1]?.text).toContain('Region: North | Revenue: 1250');
    const odp = await chunksOf('kickoff.odp');
    expect(odp.map((chunk) => chunk.page)).toEqual([1, 2]);
    expect(odp[1]?.text).toContain('Say that phase two is not funded yet.');
    expect(await evident.store.getDocument('kickoff.odp')).toMatchObject({ type: 'odp', pageCount: 2 });
  });

  it('makes real SQL tables of a slide table, a sheet and a text table', async () => {
    const tables = await evident.store.listTables(LOCAL_OPERATOR);
    const byTitle = new Map(tables.map((table) => [table.title, table]));
    expect([...byTitle.keys()].sort()).toEqual(['budget', 'memo / Allowances', 'review / slide 2']);
    const slide = byTitle.get('review / slide 2');
    expect(slide).toMatchObject({ docId: 'review.pptx', rowCount: 2 });
    const sum = await evident.store.queryTables(
      `SELECT SUM("Revenue") AS total FROM ${slide?.sqlName}`,
      LOCAL_OPERATOR,
      LIMITS,
    );
    expect(sum.rows).toEqual([[2230]]);
    // Three repeated rows of data are three rows; a million repeated empty rows are none.
    const sheet = byTitle.get('budget');
    expect(sheet?.rowCount).toBe(3);
    const cost = await evident.store.queryTables(`SELECT SUM(cost) FROM ${sheet?.sqlName}`, LOCAL_OPERATOR, LIMITS);
    expect(cost.rows).toEqual([[361.5]]);
    expect(byTitle.get('memo / Allowances')?.columns).toEqual([
      { name: 'City', type: 'text' },
      { name: 'Per diem', type: 'integer' },
    ]);
  });
});
