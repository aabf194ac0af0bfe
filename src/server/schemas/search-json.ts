import { z } from 'zod';

const channelHit = z.object({
  rank: z.number().int(),
  score: z
    .number()
    .optional()
    .describe(
      "The channel's raw score, for admins only: BM25 scores depend on statistics of documents others cannot read.",
    ),
});

/**
 * One search result on the wire (snake_case): what `POST /v1/search` and `evident search --json` return, what MCP's
 * `search` tool returns (with a resource link), and what the framework adapters read from a server.
 */
export const searchResultSchema = z.object({
  rank: z.number().int(),
  chunk_id: z.string().describe('`<doc_id>#<ordinal>`'),
  doc_id: z.string(),
  source: z.string(),
  page: z.number().int().nullable(),
  heading: z.string().describe('Heading path joined with ` › `.'),
  score: z.number(),
  text: z.string(),
  channels: z.object({ bm25: channelHit.optional(), vector: channelHit.optional() }),
  rerank_score: z.number().nullable(),
});
