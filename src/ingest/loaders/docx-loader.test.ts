import { describe, expect, it } from 'vitest';
import { buildDocx } from '../../testing/docx-builder.ts';
import { writeZip } from '../../testing/zip-writer.ts';
import { docxLoader } from './docx-loader.ts';

describe('docxLoader', () => {
  it('reads Word headings, paragraphs and table rows', async () => {
    const docx = buildDocx([
      { heading: 1, text: 'Supplier contract' },
      'This agreement is contract CT-2024-0193.',
      { heading: 2, text: 'Fees' },
      {
        table: [
          ['Item', 'Fee'],
          ['Setup', '1,250.50'],
          ['Support', '$500K'],
        ],
      },
      'Signed by both parties.',
    ]);
    const doc = await docxLoader.load(docx, '/kb/contract.docx');
    expect(doc.title).toBe('Supplier contract');
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Supplier contract' },
      { kind: 'text', text: 'This agreement is contract CT-2024-0193.' },
      { kind: 'heading', level: 2, text: 'Fees' },
      { kind: 'row', text: 'Item: Setup | Fee: 1,250.50', table: 'Fees' },
      { kind: 'row', text: 'Item: Support | Fee: $500K', table: 'Fees' },
      { kind: 'text', text: 'Signed by both parties.' },
    ]);
  });

  it('returns zero blocks for a document without text', async () => {
    expect((await docxLoader.load(buildDocx([]), '/kb/blank.docx')).blocks).toEqual([]);
  });

  it('refuses bytes that are not a docx as file_corrupt', async () => {
    await expect(docxLoader.load(Buffer.from('not a zip at all'), '/kb/bad.docx')).rejects.toMatchObject({
      code: 'file_corrupt',
    });
    const zipWithoutDocument = writeZip([{ path: 'hello.txt', data: 'hi' }]);
    await expect(docxLoader.load(zipWithoutDocument, '/kb/bad.docx')).rejects.toMatchObject({ code: 'file_corrupt' });
    const truncated = buildDocx(['Some text']).subarray(0, 200);
    await expect(docxLoader.load(truncated, '/kb/bad.docx')).rejects.toMatchObject({ code: 'file_corrupt' });
  });
});
