import { z } from 'zod';

/**
 * Describing a PDF's figures with the vision model (`vision`): each captioned figure's page is rendered with poppler's
 * `pdftoppm` and sent with its caption to the model, whose reading is stored as a passage of that page. Without a
 * vision model (or without `pdftoppm`) nothing is described: each figure is counted as not described.
 */
export const figuresSchema = z
  .object({
    maxPerDocument: z
      .number()
      .int()
      .min(0)
      .max(1_000)
      .default(20)
      .describe(
        'Figures of one document sent to the vision model, in page order; the rest are counted as not described (0: none).',
      ),
    imageSide: z
      .number()
      .int()
      .min(256)
      .max(8_192)
      .default(1_600)
      .describe(
        "Pixels of the rendered page's longer side (so at most this squared): vision models scale larger images down anyway.",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(1_000)
      .max(600_000)
      .default(60_000)
      .describe(
        "Milliseconds one figure may take (rendering its page and the model's answer); a figure past it is counted as not described and the document is stored without it.",
      ),
  })
  .strict()
  .prefault({});

export type FiguresConfig = z.infer<typeof figuresSchema>;
