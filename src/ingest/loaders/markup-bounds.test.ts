import { describe, expect, it } from 'vitest';
import { IngestLimitError } from '../../errors/index.ts';
import { htmlLoader } from './html-loader.ts';
import { markdownLoader } from './markdown-loader.ts';

// These inputs took minutes before (quadratic parsing, walks and regular expressions, then a stack overflow): the
// test's own timeout is what they used to hit. What is asserted is the result, never a duration.
describe('HTML the loader cannot be made to spend minutes on', () => {
  it('refuses elements nested deeper than ingest.maxNestingDepth with a typed error, not a stack overflow', async () => {
    const deep = Buffer.from(`${'<div>'.repeat(200_000)}deep text`);
    const error = await htmlLoader.load(deep, '/web/deep.html').catch((failure: unknown) => failure);
    expect(IngestLimitError.isInstance(error), String(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'file_limit_exceeded',
      message:
        'deep.html nests elements more than 512 levels deep, over the ingest.maxNestingDepth limit of 512 levels.',
      details: { setting: 'ingest.maxNestingDepth', env: 'EVIDENT_MAX_NESTING_DEPTH' },
    });
  });

  it('keeps 500 levels, as a browser would', async () => {
    const doc = await htmlLoader.load(
      Buffer.from(`<body>${'<div>'.repeat(500)}still read${'</div>'.repeat(500)}</body>`),
      '/web/ok.html',
    );
    expect(doc.blocks).toEqual([{ kind: 'text', text: 'still read' }]);
  });

  it('reads 50,000 sibling articles, and an article inside another once', async () => {
    const many = Array.from({ length: 50_000 }, (_, i) => `<article>Story ${i}</article>`).join('');
    const doc = await htmlLoader.load(Buffer.from(`<body><nav>menu</nav>${many}</body>`), '/web/feed.html');
    expect(doc.blocks).toHaveLength(50_000);
    expect(doc.blocks.at(-1)).toEqual({ kind: 'text', text: 'Story 49999' });
    const nested = await htmlLoader.load(
      Buffer.from('<body><article><p>Outer</p><article><p>Inner</p></article></article><p>Aside</p></body>'),
      '/web/n.html',
    );
    expect(nested.blocks.map((block) => block.text)).toEqual(['Outer', 'Inner']);
  });
});

describe('Markdown lines built against its regular expressions', () => {
  it('reads a heading followed by 200,000 blanks in linear time, closing #s trimmed, C# kept', async () => {
    const text = `# Title${' '.repeat(200_000)}end\n\n## Fees ##\n\n### C#\n\nBody.\n`;
    const doc = await markdownLoader.load(Buffer.from(text), '/kb/long.md');
    expect(
      doc.blocks.map((block) =>
        block.kind === 'heading' ? `${block.level}:${block.text.replace(/ +/g, ' ')}` : block.text,
      ),
    ).toEqual(['1:Title end', '2:Fees', '3:C#', 'Body.']);
  });

  it('reads a table separator line of 200,000 blanks, and a real separator still makes rows', async () => {
    const spaced = await markdownLoader.load(Buffer.from(`a | b\n-${' '.repeat(200_000)}x\n`), '/kb/sep.md');
    expect(spaced.blocks).toHaveLength(1);
    const table = await markdownLoader.load(
      Buffer.from('# Fees\n\n| Item | Fee |\n| :--- | ---: |\n| Setup | 1,250 |\n'),
      '/kb/t.md',
    );
    expect(table.blocks).toContainEqual({ kind: 'row', text: 'Item: Setup | Fee: 1,250', table: 'Fees' });
  });
});
