import { describe, expect, it } from 'vitest';
import { IngestError } from '../../errors/index.ts';
import { markdownLoader } from './markdown-loader.ts';

const load = (text: string) => markdownLoader.load(Buffer.from(text, 'utf8'), '/kb/policy.md');

describe('markdownLoader', () => {
  it('reads front matter: title, acl as a list, tags', async () => {
    const doc = await load(
      '---\ntitle: Travel policy\nacl:\n  - group:hr\n  - user:bob\ntags: [travel, finance]\n---\n# Other title\n\nBody.\n',
    );
    expect(doc.title).toBe('Travel policy');
    expect(doc.acl).toEqual(['group:hr', 'user:bob']);
    expect(doc.tags).toEqual(['travel', 'finance']);
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Other title' },
      { kind: 'text', text: 'Body.' },
    ]);
  });

  it('accepts acl and tags as comma-separated strings, and falls back to the first H1 for the title', async () => {
    const doc = await load(
      '---\nacl: "group:legal, user:ann"\ntags: contracts, renewals\n---\nIntro line.\n\n# Master services agreement\n',
    );
    expect(doc.acl).toEqual(['group:legal', 'user:ann']);
    expect(doc.tags).toEqual(['contracts', 'renewals']);
    expect(doc.title).toBe('Master services agreement');
  });

  it('refuses an invalid ACL entry and broken YAML with their own codes', async () => {
    await expect(load('---\nacl: [legal team]\n---\ntext\n')).rejects.toMatchObject({ code: 'acl_invalid' });
    const error = await load('---\ntitle: [unclosed\n---\ntext\n').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(IngestError);
    expect((error as IngestError).code).toBe('file_corrupt');
    expect((error as IngestError).message).toContain('front matter');
  });

  it('turns #..###### into heading levels, and setext headings too', async () => {
    const doc = await load('# One\n## Two ##\n###### Six\n#NotAHeading\n\nTitle\n=====\n\nSub\n---\n');
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'One' },
      { kind: 'heading', level: 2, text: 'Two' },
      { kind: 'heading', level: 6, text: 'Six' },
      { kind: 'text', text: '#NotAHeading' },
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'heading', level: 2, text: 'Sub' },
    ]);
  });

  it('keeps fenced code verbatim (a # inside it is not a heading) and lists as one block', async () => {
    const doc = await load(
      'Intro paragraph\nwrapped here.\n\n```bash\n# not a heading\ncurl /v2/orders/{id}\n\necho done\n```\n\n- first item\n- second item\n  continued\n1. numbered\n\nAfter.\n',
    );
    expect(doc.blocks).toEqual([
      { kind: 'text', text: 'Intro paragraph wrapped here.' },
      { kind: 'text', text: '# not a heading\ncurl /v2/orders/{id}\n\necho done' },
      { kind: 'text', text: '- first item\n- second item continued\n1. numbered' },
      { kind: 'text', text: 'After.' },
    ]);
  });

  it('turns every table row into a row block labelled with the header', async () => {
    const doc = await load(
      '## Orders\n\n| order_id | customer | total |\n|---|:---|---:|\n| A-1001 | Acme | 1,250.50 |\n| A-1002 | Beta \\| Co | |\n\nAfter the table.\n',
    );
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 2, text: 'Orders' },
      { kind: 'row', text: 'order_id: A-1001 | customer: Acme | total: 1,250.50', table: 'Orders' },
      { kind: 'row', text: 'order_id: A-1002 | customer: Beta | Co', table: 'Orders' },
      { kind: 'text', text: 'After the table.' },
    ]);
  });

  it('strips a BOM, handles CRLF and returns zero blocks for a file with only front matter', async () => {
    const doc = await markdownLoader.load(
      Buffer.from('\ufeff---\r\ntitle: Empty\r\n---\r\n\r\n', 'utf8'),
      '/kb/empty.md',
    );
    expect(doc.title).toBe('Empty');
    expect(doc.blocks).toEqual([]);
  });

  it('refuses invalid UTF-8 as file_encoding', async () => {
    const bytes = Buffer.concat([Buffer.from('# Caf'), Buffer.from([0xe9]), Buffer.from(' menu\n')]);
    await expect(markdownLoader.load(bytes, '/kb/menu.md')).rejects.toMatchObject({ code: 'file_encoding' });
  });
});
