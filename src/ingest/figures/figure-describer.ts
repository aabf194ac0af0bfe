import type { FigureCaption } from '../../domain/index.ts';

/** One figure to describe: its caption and the picture of its page. */
export interface FigureImage extends FigureCaption {
  /** The document's title, so the model knows what the figure belongs to. */
  docTitle: string;
  /** The figure's page rendered as PNG. */
  png: Buffer;
}

/**
 * Reads a figure and says what it shows (labels, values, trends), nothing it does not show. A port: ingestion knows
 * only this; a vision model is one adapter (`model-figure-describer.ts`), a test's recording fake another.
 */
export interface FigureDescriber {
  /** `provider:model`: written into every description, so a reader knows it is a model's reading of the figure. */
  readonly id: string;
  /** The description, or a rejection (counted as not described); stops when `signal` aborts. */
  describe(figure: FigureImage, signal: AbortSignal): Promise<string>;
}

/** How many of a document's captioned figures got a description, and how many did not (no model, no tools, a failure). */
export interface FigureCounts {
  described: number;
  notDescribed: number;
}
