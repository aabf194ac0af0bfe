import { readFileSync } from 'node:fs';
import { getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Block, LoadedDocument } from '../../domain/index.ts';
import { IngestError } from '../../errors/index.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { describeWith, sharedDataset } from '../../testing/requirements.ts';
import { pdfLoader } from './pdf-loader.ts';

// The real paper: its layout (two columns, wrapped headings, a sideways stamp) is what a generated PDF cannot show.
const BERT = sharedDataset('pdfs/bert-1810.04805.pdf');

async function loadError(bytes: Buffer): Promise<IngestError> {
  const error = await pdfLoader.load(bytes, '/docs/report.pdf').then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(IngestError);
  return error as IngestError;
}

describeWith(BERT, 'pdfLoader on the BERT paper', (path) => {
  let doc: LoadedDocument;
  let headings: Extract<Block, { kind: 'heading' }>[];
  let body: string;
  beforeAll(async () => {
    doc = await pdfLoader.load(readFileSync(path), path);
    headings = doc.blocks.filter((block): block is Extract<Block, { kind: 'heading' }> => block.kind === 'heading');
    body = doc.blocks
      .filter((block) => block.kind === 'text')
      .map((block) => block.text)
      .join('\n');
  });

  it('reports 16 pages and a page on every block, in reading order', () => {
    expect(doc.pageCount).toBe(16);
    expect(doc.blocks.every((block) => Number.isInteger(block.page) && block.page! >= 1 && block.page! <= 16)).toBe(
      true,
    );
    const pages = doc.blocks.map((block) => block.page ?? 0);
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
    expect(new Set(pages).size).toBe(16);
  });

  it('finds the title and the numbered section headings with their levels', () => {
    expect(doc.title).toBe('BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding');
    const find = (text: string) => headings.find((heading) => heading.text === text);
    expect(find('1 Introduction')).toMatchObject({ level: 1, page: 1 });
    expect(find('3 BERT')).toMatchObject({ level: 1, page: 3 });
    expect(find('3.1 Pre-training BERT')).toMatchObject({ level: 2, page: 4 });
    expect(find('5.1 Effect of Pre-training Tasks')).toMatchObject({ level: 2 });
    expect(find('A.1 Illustration of the Pre-training Tasks')).toMatchObject({ level: 2 });
    // A heading that wraps onto a second line is one heading.
    expect(find('C.2 Ablation for Different Masking Procedures')).toBeDefined();
    expect(find('Abstract')).toMatchObject({ level: 1, page: 1 });
    // The sideways arXiv stamp is not a heading.
    expect(headings.some((heading) => heading.text.startsWith('arXiv'))).toBe(false);
  });

  it('joins lines into paragraphs and undoes end-of-line hyphenation', () => {
    expect(body).toContain('We introduce a new language representation model called BERT, which stands for');
    expect(body).not.toContain('representa-');
    expect(body).not.toContain('representa- tion');
    // A hyphen the authors wrote themselves (`pre-trained`) survives a line break.
    expect(body).toContain('the pre-trained BERT model can be fine-tuned with just one additional output layer');
    expect(body).toContain('https://github.com/google-research/bert');
    const abstract = doc.blocks.find((block) => block.text.startsWith('We introduce a new language'));
    expect(abstract?.text).toMatch(/without substantial task-specific architecture modifications\.$/);
  });
});

describe('pdfLoader on generated PDFs', () => {
  it('reads pages, headings and paragraphs of a simple PDF', async () => {
    const pdf = buildPdf([
      [
        { text: 'Service Agreement', size: 20, bold: true },
        { text: '1 Scope', size: 11, bold: true, gapBefore: 10 },
        { text: 'The supplier delivers the services described in con-' },
        { text: 'tract CT-2024-0193 to the customer.' },
      ],
      [{ text: '2 Termination', bold: true }, { text: 'Either party may terminate with 90 days notice.' }],
    ]);
    const doc = await pdfLoader.load(pdf, '/docs/agreement.pdf');
    expect(doc.pageCount).toBe(2);
    expect(doc.title).toBe('Service Agreement');
    expect(doc.blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Service Agreement', page: 1 },
      { kind: 'heading', level: 1, text: '1 Scope', page: 1 },
      {
        kind: 'text',
        text: 'The supplier delivers the services described in contract CT-2024-0193 to the customer.',
        page: 1,
      },
      { kind: 'heading', level: 1, text: '2 Termination', page: 2 },
      { kind: 'text', text: 'Either party may terminate with 90 days notice.', page: 2 },
    ]);
  });

  it('writes superscripts and subscripts readably: 10^19, d_k; a word set small stays a word', async () => {
    // Each script starts where its base ends, as a typesetter sets it: the base's width is measured by pdf.js itself.
    const widthOf = async (text: string, size: number): Promise<number> => {
      const probe = await getDocumentProxy(new Uint8Array(buildPdf([[{ text, size, y: 700 }]])));
      const item = (await (await probe.getPage(1)).getTextContent()).items[0] as { width: number };
      return item.width;
    };
    const line = async (y: number, [base, script, rest]: string[], shift: number) => {
      const scriptX = 72 + (await widthOf(base!, 11));
      const restX = scriptX + (await widthOf(script!, 7));
      return [
        { text: base!, y },
        { text: script!, size: 7, x: scriptX, y: y + shift },
        { text: rest!, x: restX + 2.75, y },
      ];
    };
    const pdf = buildPdf([
      [
        ...(await line(700, ['Training took 2.3 · 10', '19', 'FLOPs in all.'], 4)),
        ...(await line(680, ['Scores are scaled by d', 'k', 'before the softmax.'], -3)),
        ...(await line(660, ['The BERT', 'LARGE', 'model is large.'], -3)),
      ],
    ]);
    const text = (await pdfLoader.load(pdf, '/docs/scripts.pdf')).blocks.map((block) => block.text).join(' ');
    expect(text).toContain('2.3 · 10^19 FLOPs');
    expect(text).toContain('scaled by d_k before');
    expect(text).not.toContain('BERT_LARGE');
  });

  it('reads a two-column page column by column, though its lines are written across both columns in turn', async () => {
    const left = [
      'The left column starts the report and',
      'goes on to say that every pump was',
      'inspected twice during the quarter, and',
      'that the inspections found no leaks in',
      'any of the sealed housings at the plant.',
      'The second visit took place in June and',
      'the third one was cancelled for a strike',
      'that closed the site for a full week.',
      'All findings are listed in the annex.',
    ];
    const right = [
      'The right column turns to the costs and',
      'reports that spare parts cost less than',
      'the budget allowed, by about a tenth, so',
      'the team ordered seals for next year in',
      'advance at the old price from the maker.',
      'Labour costs rose with the new contract',
      'signed in May for the whole service team',
      'and are expected to stay at that level.',
      'The board approved the plan in July.',
    ];
    // Written line by line across the page: left line, right line, left line …
    const lines = left.flatMap((text, index) => [
      { text, x: 72, y: 700 - index * 13 },
      { text: right[index]!, x: 320, y: 700 - index * 13 },
    ]);
    const pdf = buildPdf([
      [{ text: 'Quarterly pump report for the whole plant and its service team', x: 72, y: 740 }, ...lines],
    ]);
    const text = (await pdfLoader.load(pdf, '/docs/columns.pdf')).blocks.map((block) => block.text).join('\n');
    expect(text).toContain(left.join(' '));
    expect(text).toContain(right.join(' '));
    expect(text.indexOf(left[0]!)).toBeLessThan(text.indexOf(right[0]!));
  });

  it('returns zero blocks for a PDF without text', async () => {
    const doc = await pdfLoader.load(buildPdf([[], []]), '/docs/scan.pdf');
    expect(doc.blocks).toEqual([]);
    expect(doc.pageCount).toBe(2);
  });

  it('refuses random bytes as pdf_corrupt with advice', async () => {
    const error = await loadError(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
    expect(error.code).toBe('pdf_corrupt');
    expect(error.message).toContain('report.pdf');
    expect(error.hint).toMatch(/truncated|re-export/);
  });

  it('refuses a truncated PDF as pdf_corrupt', async () => {
    const pdf = buildPdf([[{ text: 'Page one' }], [{ text: 'Page two' }], [{ text: 'Page three' }]]);
    expect((await pdfLoader.load(pdf, '/docs/report.pdf')).pageCount).toBe(3);
    const error = await loadError(pdf.subarray(0, Math.floor(pdf.length / 2)));
    expect(error.code).toBe('pdf_corrupt');
  });

  it('refuses a password-protected PDF as pdf_encrypted and says how to decrypt it', async () => {
    const error = await loadError(buildPdf([[{ text: 'Secret salary table' }]], { encrypted: true }));
    expect(error.code).toBe('pdf_encrypted');
    expect(error.category).toBe('user');
    expect(error.message).toContain('password');
    expect(error.hint).toContain('qpdf --decrypt');
  });
});
