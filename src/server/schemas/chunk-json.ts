import { z } from 'zod';
import type { Chunk } from '../../domain/index.ts';

const box = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/** A chunk as `GET /v1/chunks/{chunk_id}` gives it: what a citation points at, with where its table rows are printed. */
export const chunkJson = z
  .object({
    chunk_id: z.string(),
    doc_id: z.string(),
    title: z.string(),
    heading_path: z.array(z.string()),
    page: z.number().int().optional(),
    text: z.string(),
    regions: z
      .array(z.object({ page: z.number().int(), text: z.string(), cells: z.array(box) }).strict())
      .describe(
        "The table rows it holds and their cells' boxes `[x0, y0, x1, y1]` in PDF points, origin at the page's bottom left.",
      ),
  })
  .strict();
export type ChunkJson = z.infer<typeof chunkJson>;

/** A stored chunk (with its document's title) as the route sends it. */
export const chunkToJson = (chunk: Chunk & { title: string }): ChunkJson => ({
  chunk_id: chunk.id,
  doc_id: chunk.docId,
  title: chunk.title,
  heading_path: chunk.headingPath,
  ...(chunk.page === undefined ? {} : { page: chunk.page }),
  text: chunk.text,
  regions: chunk.regions ?? [],
});
