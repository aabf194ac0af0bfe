import { describe, expect, it } from 'vitest';
import { textLoader } from './text-loader.ts';

const load = (text: string) => textLoader.load(Buffer.from(text, 'utf8'), '/kb/notes.txt');

describe('textLoader', () => {
  it('splits paragraphs on blank lines and keeps their lines', async () => {
    const doc = await load('First paragraph\ncontinues here.\r\n\r\n\n  Second one.  \n');
    expect(doc.blocks).toEqual([
      { kind: 'text', text: 'First paragraph\ncontinues here.' },
      { kind: 'text', text: '  Second one.' },
    ]);
  });

  it('detects ALL-CAPS and numbered heading lines, modestly', async () => {
    const doc = await load(
      'TERMINATION\nEither party may end this agreement.\n\n2.1 Notice Period\n\nNinety days.\n\n1. Apples\n2. Pears\n\nNASA.\n\n3 apples are on the table\n',
    );
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'TERMINATION' },
      { kind: 'text', text: 'Either party may end this agreement.' },
      { kind: 'heading', level: 2, text: '2.1 Notice Period' },
      { kind: 'text', text: 'Ninety days.' },
      { kind: 'text', text: '1. Apples\n2. Pears' },
      { kind: 'text', text: 'NASA.' },
      { kind: 'text', text: '3 apples are on the table' },
    ]);
  });

  it('returns zero blocks for whitespace only, strips a BOM and refuses invalid UTF-8', async () => {
    expect((await load(' \n\n\t\n')).blocks).toEqual([]);
    expect((await textLoader.load(Buffer.from('\ufeffHello', 'utf8'), '/kb/a.txt')).blocks).toEqual([
      { kind: 'text', text: 'Hello' },
    ]);
    await expect(textLoader.load(Buffer.from([0x48, 0xc3, 0x28]), '/kb/a.txt')).rejects.toMatchObject({
      code: 'file_encoding',
    });
  });

  it('reads UTF-16 text that starts with a byte order mark', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße aus Köln', 'utf16le')]);
    expect((await textLoader.load(utf16, '/kb/a.txt')).blocks).toEqual([{ kind: 'text', text: 'Grüße aus Köln' }]);
  });
});
