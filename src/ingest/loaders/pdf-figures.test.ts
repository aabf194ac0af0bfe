import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { itWith, sharedDataset } from '../../testing/requirements.ts';
import { figureCaptions } from './pdf-figures.ts';
import { pdfLoader } from './pdf-loader.ts';

describe('figure captions in a PDF', () => {
  it('reports each captioned figure once with its page; a sentence about a figure is not a caption', async () => {
    const pdf = buildPdf([
      [
        { text: 'Harbour report', size: 18, bold: true },
        { text: 'Figure 1 shows how the cranes were used over the year.', gapBefore: 12 },
      ],
      [
        { text: 'The cranes moved more containers in summer than in winter.' },
        { text: 'Figure 1: Containers moved per month by the eastern cranes.', gapBefore: 24 },
        { text: 'Fig. 2. Map of the berths.', gapBefore: 24 },
      ],
      [{ text: 'Figure 1: Containers moved per month, repeated in the appendix.', gapBefore: 12 }],
    ]);
    const loaded = await pdfLoader.load(pdf, 'harbour.pdf');
    expect(loaded.figures).toEqual([
      { page: 2, label: 'Figure 1', caption: 'Figure 1: Containers moved per month by the eastern cranes.' },
      { page: 2, label: 'Figure 2', caption: 'Fig. 2. Map of the berths.' },
    ]);
  });

  it('reads numbered and appendix labels, and cuts a long caption', () => {
    const long = `Figure 3.2: ${'word '.repeat(200)}`;
    const found = figureCaptions([
      { kind: 'text', text: 'Figure A.1: Ablation.', page: 9 },
      { kind: 'text', text: long, page: 4 },
      { kind: 'text', text: 'Figure 3.1 and Figure 3.2 compare the runs.', page: 4 },
      { kind: 'heading', text: 'Figure 5: not a caption when it is a heading', level: 2, page: 5 },
    ]);
    expect(found.map((figure) => [figure.label, figure.page])).toEqual([
      ['Figure A.1', 9],
      ['Figure 3.2', 4],
    ]);
    expect(found[1]?.caption.length).toBeLessThanOrEqual(600);
  });

  it('a PDF without captions reports no figures', async () => {
    const loaded = await pdfLoader.load(buildPdf([[{ text: 'No pictures here.' }]]), 'plain.pdf');
    expect(loaded.figures).toBeUndefined();
  });

  itWith(
    sharedDataset('pdfs/bert-1810.04805.pdf'),
    'finds the five figures of the BERT paper on their pages',
    async (path) => {
      const loaded = await pdfLoader.load(await readFile(path), 'bert.pdf');
      expect(loaded.figures?.map((figure) => [figure.label, figure.page])).toEqual([
        ['Figure 1', 3],
        ['Figure 2', 5],
        ['Figure 3', 13],
        ['Figure 4', 15],
        ['Figure 5', 16],
      ]);
      expect(loaded.figures?.[1]?.caption).toMatch(/^Figure 2: BERT input representation\./);
    },
  );
});
