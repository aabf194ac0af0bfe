import { describe, expect, it } from 'vitest';
import { IngestLimitError } from '../../errors/index.ts';
import { buildOdf, odfTable } from '../../testing/odf-builder.ts';
import { odpLoader } from './odp-loader.ts';

/** A frame as Impress writes one: a presentation class and a text box of paragraphs. */
const frame = (kind: string, paragraphs: string[]) =>
  `<draw:frame presentation:style-name="pr1" presentation:class="${kind}" svg:width="25cm" svg:height="3cm" svg:x="1cm" svg:y="1cm">` +
  `<draw:text-box>${paragraphs.map((text) => `<text:p>${text}</text:p>`).join('')}</draw:text-box></draw:frame>`;
const notes = (paragraphs: string[]) =>
  `<presentation:notes draw:style-name="dp2"><draw:page-thumbnail draw:style-name="gr1" draw:page-number="1" presentation:class="page"/>${frame('notes', paragraphs)}</presentation:notes>`;
const page = (name: string, inner: string) =>
  `<draw:page draw:name="${name}" draw:style-name="dp1" draw:master-page-name="Default">${inner}</draw:page>`;

describe('odpLoader', () => {
  it('reads slides in document order with titles, outline text, tables and speaker notes, each at its slide', async () => {
    const body =
      // Named out of order on purpose: the order of the show is the order of draw:page elements.
      page(
        'page2',
        `${frame('title', ['Quarterly review'])}${frame('outline', ['Revenue grew 12%.', 'Churn fell to 3%.'])}` +
          `${frame('page-number', ['<text:page-number>1</text:page-number>'])}${notes(['Mention the Acme renewal.'])}`,
      ) +
      page(
        'page1',
        `${frame('title', ['Regional sales'])}<draw:frame draw:name="Table 1">${odfTable('Table1', [
          ['Region', 'Q1'],
          ['North', '1250'],
          ['South', '980'],
        ])}</draw:frame>`,
      ) +
      page('page3', `<draw:custom-shape draw:name="Box"><text:p>A note in a shape.</text:p></draw:custom-shape>`) +
      page('page4', '');
    const doc = await odpLoader.load(buildOdf('presentation', body), '/kb/review.odp');
    expect(doc.title).toBe('Quarterly review');
    expect(doc.pageCount).toBe(4);
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Quarterly review', page: 1 },
      { kind: 'text', text: 'Revenue grew 12%.', page: 1 },
      { kind: 'text', text: 'Churn fell to 3%.', page: 1 },
      { kind: 'heading', level: 2, text: 'Speaker notes', page: 1 },
      { kind: 'text', text: 'Mention the Acme renewal.', page: 1 },
      { kind: 'heading', level: 1, text: 'Regional sales', page: 2 },
      { kind: 'heading', level: 2, text: 'review / slide 2 — columns: Region, Q1', page: 2 },
      { kind: 'row', text: 'Region: North | Q1: 1250', table: 'review / slide 2', page: 2 },
      { kind: 'row', text: 'Region: South | Q1: 980', table: 'review / slide 2', page: 2 },
      { kind: 'heading', level: 1, text: 'Slide 3', page: 3 },
      { kind: 'text', text: 'A note in a shape.', page: 3 },
    ]);
    expect(doc.tables?.[0]).toMatchObject({
      title: 'review / slide 2',
      rows: [
        ['North', 1250],
        ['South', 980],
      ],
    });
  });

  it('prefers the title in meta.xml', async () => {
    const doc = await odpLoader.load(
      buildOdf('presentation', page('p1', frame('title', ['Intro'])), { title: 'Board deck' }),
      '/kb/deck.odp',
    );
    expect(doc.title).toBe('Board deck');
  });

  it('refuses a text document named .odp as file_corrupt, and a slide table repeated past the bounds as a limit', async () => {
    await expect(odpLoader.load(buildOdf('text', '<text:p>x</text:p>'), '/kb/text.odp')).rejects.toMatchObject({
      code: 'file_corrupt',
      message: expect.stringMatching(/text\.odp is not a readable \.odp OpenDocument presentation \(its mimetype is/),
      hint: expect.stringContaining('save it again as .odp'),
    });
    const repeated =
      '<table:table table:name="T"><table:table-row><table:table-cell office:value-type="string"><text:p>a</text:p></table:table-cell></table:table-row>' +
      '<table:table-row table:number-rows-repeated="50000000"><table:table-cell office:value-type="string"><text:p>b</text:p></table:table-cell></table:table-row></table:table>';
    const error = await odpLoader
      .load(buildOdf('presentation', page('p1', `<draw:frame>${repeated}</draw:frame>`)), '/kb/rows.odp')
      .catch((failure: unknown) => failure);
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    expect((error as IngestLimitError).details).toMatchObject({ setting: 'ingest.maxTableCells' });
  });
});
