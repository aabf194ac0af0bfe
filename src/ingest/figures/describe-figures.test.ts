import { describe, expect, it } from 'vitest';
import type { Block } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import { buildPdf } from '../../testing/pdf-builder.ts';
import { INGEST_DEFAULTS } from '../limits.ts';
import { describeFigures, type FiguresToDescribe } from './describe-figures.ts';
import type { FigureImage } from './figure-describer.ts';

const CAPTION = 'Figure 1: Tide heights at the northern basin.';
const blocks: Block[] = [
  { kind: 'text', text: 'Tides were measured hourly.', page: 1 },
  { kind: 'text', text: CAPTION, page: 1 },
];
const input = (over: Partial<FiguresToDescribe>): FiguresToDescribe => ({
  docId: 'tides.pdf',
  docTitle: 'Tides',
  pdf: buildPdf([[{ text: CAPTION }]]),
  figures: [{ page: 1, label: 'Figure 1', caption: CAPTION }],
  blocks,
  describer: undefined,
  config: INGEST_DEFAULTS.figures,
  logger: silentLogger,
  ...over,
});

describe('describeFigures without what it needs', () => {
  it('offline: the blocks are as loaded and the figure is counted as not described', async () => {
    const { blocks: out, counts } = await describeFigures(input({}));
    expect(out).toEqual(blocks);
    expect(counts).toEqual({ described: 0, notDescribed: 1 });
  });

  it('without pdftoppm the model is not asked, and the figure is counted as not described', async () => {
    const asked: FigureImage[] = [];
    const describer = { id: 'openai:v', describe: async (figure: FigureImage) => (asked.push(figure), 'a chart') };
    const { blocks: out, counts } = await describeFigures(input({ describer, env: { PATH: '/nonexistent' } }));
    expect(asked).toEqual([]);
    expect(out).toEqual(blocks);
    expect(counts).toEqual({ described: 0, notDescribed: 1 });
  });

  it('ingest.figures.maxPerDocument 0 describes none', async () => {
    const describer = { id: 'openai:v', describe: async () => 'a chart' };
    const { counts } = await describeFigures(
      input({ describer, config: { ...INGEST_DEFAULTS.figures, maxPerDocument: 0 } }),
    );
    expect(counts).toEqual({ described: 0, notDescribed: 1 });
  });
});
