import { describe, expect, it } from 'vitest';
import { loaderFor, SUPPORTED_EXTENSIONS } from './index.ts';

describe('loaderFor', () => {
  it('chooses a loader by extension, case-insensitively', () => {
    expect(loaderFor('/a/Report.PDF')?.type).toBe('pdf');
    expect(loaderFor('notes.md')?.type).toBe('markdown');
    expect(loaderFor('notes.markdown')?.type).toBe('markdown');
    expect(loaderFor('page.HTM')?.type).toBe('html');
    expect(loaderFor('contract.docx')?.type).toBe('docx');
    expect(loaderFor('server.log')?.type).toBe('text');
    expect(loaderFor('orders.csv')?.type).toBe('csv');
    expect(loaderFor('book.xlsx')?.type).toBe('xlsx');
    expect(loaderFor('deck.PPTX')?.type).toBe('pptx');
    expect(loaderFor('memo.odt')?.type).toBe('odt');
    expect(loaderFor('sheet.ods')?.type).toBe('ods');
    expect(loaderFor('slides.odp')?.type).toBe('odp');
    for (const image of ['scan.png', 'photo.JPG', 'photo.jpeg', 'fax.tif', 'fax.TIFF'])
      expect(loaderFor(image)?.type).toBe('image');
  });

  it('returns undefined for unsupported or missing extensions', () => {
    expect(loaderFor('drawing.svg')).toBeUndefined();
    expect(loaderFor('Makefile')).toBeUndefined();
    expect(loaderFor('archive.tar.gz')).toBeUndefined();
  });

  it('lists every supported extension with its dot', () => {
    expect(SUPPORTED_EXTENSIONS).toEqual(
      expect.arrayContaining(['.pdf', '.md', '.html', '.docx', '.txt', '.csv', '.xlsx']),
    );
    for (const extension of SUPPORTED_EXTENSIONS) expect(loaderFor(`file${extension.toUpperCase()}`)).toBeDefined();
  });
});
