import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FiguresConfig } from '../../config/figures-schema.ts';
import type { Block, FigureCaption } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { detectOcrTools } from '../ocr/ocr-tools.ts';
import type { FigureCounts, FigureDescriber } from './figure-describer.ts';
import { renderFigurePage } from './render-figure-page.ts';

/** Characters of a description kept: a figure's reading, not an essay. */
const MAX_DESCRIPTION_CHARS = 2_000;

export interface FiguresToDescribe {
  docId: string;
  docTitle: string;
  /** The PDF as it was read: its pages are rendered from these bytes. */
  pdf: Buffer;
  figures: readonly FigureCaption[];
  blocks: readonly Block[];
  /** Absent offline: nothing is described, and every figure is counted as not described. */
  describer: FigureDescriber | undefined;
  config: FiguresConfig;
  logger: Logger;
  /** Where `pdftoppm` is looked up (`PATH`); the process's environment by default. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The document's blocks with a description after each figure's caption, on the figure's page, labelled with the
 * model that wrote it (`Figure 1 (described by openai:gpt-4o-mini): …`), and how many figures got one. Nothing is
 * invented: without a model or `pdftoppm` no figure is described, and a figure the model fails on (an error, its
 * time bound) is logged with the reason and left out. The document is never failed for a figure.
 */
export async function describeFigures(input: FiguresToDescribe): Promise<{ blocks: Block[]; counts: FigureCounts }> {
  const { figures, describer, config, logger, docId } = input;
  const env = input.env ?? process.env;
  const none = { blocks: [...input.blocks], counts: { described: 0, notDescribed: figures.length } };
  if (figures.length === 0) return none;
  const why = !describer
    ? 'no vision model is configured'
    : config.maxPerDocument === 0
      ? 'ingest.figures.maxPerDocument is 0'
      : (await detectOcrTools(env)).pdftoppm
        ? undefined
        : 'pdftoppm (poppler-utils) is not installed';
  if (why || !describer) {
    logger.info('figures: not described', { docId, figures: figures.length, reason: why });
    return none;
  }
  const chosen = figures.slice(0, config.maxPerDocument);
  if (chosen.length < figures.length)
    logger.info('figures: over ingest.figures.maxPerDocument, the rest are not described', {
      docId,
      figures: figures.length,
      described: chosen.length,
    });
  const descriptions = new Map<FigureCaption, string>();
  // A private directory (mode 0700) for this document's PDF and its renderings, removed whatever happens.
  const dir = await mkdtemp(join(tmpdir(), 'evident-figures-'));
  try {
    const pdfPath = join(dir, 'in.pdf');
    await writeFile(pdfPath, input.pdf, { mode: 0o600 });
    // Figures that share a page share its rendering.
    const pages = new Map<number, Promise<Buffer>>();
    for (const figure of chosen) {
      try {
        const text = await describeOne(figure, { ...input, describer, pdfPath, dir, env, pages });
        descriptions.set(figure, `${figure.label} (described by ${describer.id}): ${text}`);
      } catch (error) {
        logger.warn('figures: a figure was not described', {
          docId,
          figure: figure.label,
          page: figure.page,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    blocks: withDescriptions(input.blocks, descriptions),
    counts: { described: descriptions.size, notDescribed: figures.length - descriptions.size },
  };
}

/** One figure's description within `ingest.figures.timeoutMs` (its page's rendering and the model's answer). */
async function describeOne(
  figure: FigureCaption,
  at: FiguresToDescribe & {
    describer: FigureDescriber;
    pdfPath: string;
    dir: string;
    env: NodeJS.ProcessEnv;
    pages: Map<number, Promise<Buffer>>;
  },
): Promise<string> {
  const { config } = at;
  const deadline = performance.now() + config.timeoutMs;
  let rendering = at.pages.get(figure.page);
  if (!rendering) {
    rendering = renderFigurePage({
      pdfPath: at.pdfPath,
      dir: at.dir,
      page: figure.page,
      side: config.imageSide,
      timeoutMs: config.timeoutMs,
      env: at.env,
    });
    at.pages.set(figure.page, rendering);
  }
  const png = await rendering;
  const remaining = Math.max(1, Math.round(deadline - performance.now()));
  const signal = AbortSignal.timeout(remaining);
  // The model's client may not stop at once when the signal aborts: the bound holds either way.
  const answer = await Promise.race([
    at.describer.describe({ ...figure, docTitle: at.docTitle, png }, signal),
    new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () =>
        reject(new Error(`no answer within ingest.figures.timeoutMs (${config.timeoutMs} ms)`)),
      ),
    ),
  ]);
  const text = answer.replace(/\s+/g, ' ').trim().slice(0, MAX_DESCRIPTION_CHARS);
  if (!text) throw new Error('the model answered nothing');
  return text;
}

/** Each description as a block of its figure's page, right after the caption (or after the page's last block). */
function withDescriptions(blocks: readonly Block[], descriptions: ReadonlyMap<FigureCaption, string>): Block[] {
  const out = [...blocks];
  for (const [figure, text] of descriptions) {
    const caption = out.findIndex(
      (block) => block.kind === 'text' && block.page === figure.page && block.text.startsWith(figure.caption),
    );
    const lastOfPage = out.findLastIndex((block) => block.page !== undefined && block.page <= figure.page);
    const at = (caption >= 0 ? caption : lastOfPage) + 1;
    out.splice(at, 0, { kind: 'text', text, page: figure.page });
  }
  return out;
}
