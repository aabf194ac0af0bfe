import { describe, expect, it } from 'vitest';
import { buildOdf, odfTable } from '../../testing/odf-builder.ts';
import { writeZip } from '../../testing/zip-writer.ts';
import { odtLoader } from './odt-loader.ts';

describe('odtLoader', () => {
  it('reads headings at their outline level, paragraphs, nested lists and tables in document order', async () => {
    const body =
      '<text:sequence-decls><text:sequence-decl text:display-outline-level="0" text:name="Table"/></text:sequence-decls>' +
      '<text:tracked-changes><text:changed-region text:id="ct1"><text:deletion><text:p>Deleted clause that must not be read.</text:p></text:deletion></text:changed-region></text:tracked-changes>' +
      '<text:h text:style-name="Heading_20_1" text:outline-level="1">Supplier <text:span text:style-name="T1">contract</text:span></text:h>' +
      '<text:p text:style-name="Standard">This agreement is contract <text:span>CT-2024-0193</text:span>.<text:note text:id="ftn1" text:note-class="footnote">' +
      '<text:note-citation>1</text:note-citation><text:note-body><text:p>Signed in Lyon.</text:p></text:note-body></text:note></text:p>' +
      '<text:p>Three<text:s text:c="3"/>spaces,\n   a<text:tab/>tab and<text:line-break/>a line break.</text:p>' +
      '<text:p/>' +
      '<text:h text:outline-level="2">Fees</text:h>' +
      '<text:list text:style-name="L1"><text:list-item><text:p>Setup is billed once.</text:p>' +
      '<text:list><text:list-item><text:p>Within 30 days.</text:p></text:list-item></text:list></text:list-item>' +
      '<text:list-item><text:p>Support is <text:a xlink:href="https://example.com" xmlns:xlink="http://www.w3.org/1999/xlink">monthly</text:a>.</text:p></text:list-item></text:list>' +
      odfTable('Fees table', [
        ['Item', 'Fee'],
        ['Setup', '1250.50'],
        ['Support', '500'],
      ]) +
      '<text:section text:name="S1"><text:p>Signed by both parties.</text:p></text:section>';
    const doc = await odtLoader.load(buildOdf('text', body, { title: 'Supply agreement' }), '/kb/contract.odt');
    expect(doc.title).toBe('Supply agreement');
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Supplier contract' },
      { kind: 'text', text: 'This agreement is contract CT-2024-0193.' },
      { kind: 'text', text: 'Signed in Lyon.' },
      { kind: 'text', text: 'Three spaces, a tab and\na line break.' },
      { kind: 'heading', level: 2, text: 'Fees' },
      { kind: 'text', text: 'Setup is billed once.' },
      { kind: 'text', text: 'Within 30 days.' },
      { kind: 'text', text: 'Support is monthly.' },
      { kind: 'heading', level: 3, text: 'contract / Fees table — columns: Item, Fee' },
      { kind: 'row', text: 'Item: Setup | Fee: 1250.50', table: 'contract / Fees table' },
      { kind: 'row', text: 'Item: Support | Fee: 500', table: 'contract / Fees table' },
      { kind: 'text', text: 'Signed by both parties.' },
    ]);
    expect(doc.tables).toEqual([
      {
        title: 'contract / Fees table',
        columns: [
          { name: 'Item', type: 'text' },
          { name: 'Fee', type: 'real' },
        ],
        rows: [
          ['Setup', 1250.5],
          ['Support', 500],
        ],
      },
    ]);
    expect(doc.pageCount).toBeUndefined();
  });

  it('takes the first heading as title when meta.xml has none, and returns zero blocks for an empty document', async () => {
    const doc = await odtLoader.load(buildOdf('text', '<text:h>Memo</text:h><text:p>Body.</text:p>'), '/kb/m.odt');
    expect(doc.title).toBe('Memo');
    expect(doc.blocks[0]).toEqual({ kind: 'heading', level: 1, text: 'Memo' });
    expect(await odtLoader.load(buildOdf('text', '<text:p/>'), '/kb/blank.odt')).toEqual({ blocks: [] });
  });

  it('refuses what is not OpenDocument text as file_corrupt, saying what it is and how to fix it', async () => {
    const cases: [string, Buffer, RegExp][] = [
      [
        'plain',
        Buffer.from('plain text'),
        /plain\.odt is not a readable \.odt OpenDocument text \(it is not a zip archive\)/,
      ],
      [
        'sheet',
        buildOdf('spreadsheet', '<table:table table:name="S"/>'),
        /its mimetype is "application\/vnd\.oasis\.opendocument\.spreadsheet"/,
      ],
      [
        'nocontent',
        writeZip([{ path: 'mimetype', data: 'application/vnd.oasis.opendocument.text', method: 'store' }]),
        /it has no content\.xml/,
      ],
      [
        'nobody',
        buildOdf('presentation', '', { mimetype: 'application/vnd.oasis.opendocument.text' }),
        /content\.xml has no office:text/,
      ],
      ['truncated', buildOdf('text', '<text:p>Some text</text:p>').subarray(0, 200), /not a readable \.odt/],
    ];
    for (const [name, bytes, message] of cases) {
      await expect(odtLoader.load(bytes, `/kb/${name}.odt`), name).rejects.toMatchObject({
        code: 'file_corrupt',
        message: expect.stringMatching(message),
        hint: expect.stringContaining('save it again as .odt'),
      });
    }
  });
});
