import { describe, expect, it } from 'vitest';
import { htmlLoader } from './html-loader.ts';

const load = (html: string) => htmlLoader.load(Buffer.from(html, 'utf8'), '/kb/page.html');

describe('htmlLoader', () => {
  it('keeps the main text, drops scripts, styles and site chrome, and reads the title', async () => {
    const doc = await load(`<!doctype html><html><head><title> Refund  policy </title><style>p{color:red}</style></head>
      <body><header><nav><a href="/">Home</a></nav></header>
      <main><h1>Refunds</h1><p>Customers get a refund within <b>30 days</b>.<script>track()</script></p>
      <aside>Related links</aside><h2>Exceptions</h2><p>Gift cards &amp; vouchers<br>are excluded.</p>
      <ul><li>Item one</li><li>Item two</li></ul></main>
      <footer>© 2024 Acme</footer></body></html>`);
    expect(doc.title).toBe('Refund policy');
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Refunds' },
      { kind: 'text', text: 'Customers get a refund within 30 days.' },
      { kind: 'heading', level: 2, text: 'Exceptions' },
      { kind: 'text', text: 'Gift cards & vouchers\nare excluded.' },
      { kind: 'text', text: 'Item one' },
      { kind: 'text', text: 'Item two' },
    ]);
  });

  it('prefers <article> when there is no <main>, and falls back to the body', async () => {
    const withArticle = await load('<body><div>Cookie banner</div><article><h3>Post</h3><p>Text.</p></article></body>');
    expect(withArticle.blocks.map((block) => block.text)).toEqual(['Post', 'Text.']);
    const bodyOnly = await load('<body><div>Just <i>body</i> text</div><pre>  line 1\n  line 2</pre></body>');
    expect(bodyOnly.blocks).toEqual([
      { kind: 'text', text: 'Just body text' },
      { kind: 'text', text: '  line 1\n  line 2' },
    ]);
    expect(bodyOnly.title).toBeUndefined();
  });

  it('turns table rows into row blocks labelled by the header row, named by the caption', async () => {
    const doc = await load(`<h2>Prices</h2><table><caption>Plan prices</caption>
      <thead><tr><th>Plan</th><th>Price</th></tr></thead>
      <tbody><tr><td>Basic</td><td>$10</td></tr><tr><td>Pro <em>plus</em></td><td>$500K</td></tr></tbody></table>`);
    expect(doc.title).toBeUndefined();
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 2, text: 'Prices' },
      { kind: 'text', text: 'Plan prices' },
      { kind: 'row', text: 'Plan: Basic | Price: $10', table: 'Plan prices' },
      { kind: 'row', text: 'Plan: Pro plus | Price: $500K', table: 'Plan prices' },
    ]);
  });

  it('takes a first row of labels as the header of a table without <th>, but not a row of numbers', async () => {
    const labelled = await load(
      '<table><tr><td>Region</td><td>Revenue</td></tr><tr><td>EMEA</td><td>1,250.50</td></tr></table>',
    );
    expect(labelled.blocks).toEqual([{ kind: 'row', text: 'Region: EMEA | Revenue: 1,250.50' }]);
    const numeric = await load('<table><tr><td>2023</td><td>2024</td></tr><tr><td>10</td><td>12</td></tr></table>');
    expect(numeric.blocks).toEqual([
      { kind: 'row', text: '2023 | 2024' },
      { kind: 'row', text: '10 | 12' },
    ]);
  });

  it('uses the first h1 as title when there is no <title>, and yields no blocks for an empty page', async () => {
    expect((await load('<h1>Handbook</h1><p>x</p>')).title).toBe('Handbook');
    expect((await load('<html><head><script>x()</script></head><body>  </body></html>')).blocks).toEqual([]);
  });

  it('refuses invalid UTF-8 as file_encoding', async () => {
    await expect(
      htmlLoader.load(Buffer.from([0x3c, 0x70, 0x3e, 0xff, 0xfe, 0x41]), '/kb/x.html'),
    ).rejects.toMatchObject({
      code: 'file_encoding',
    });
  });
});
