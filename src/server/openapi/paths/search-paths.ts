import { z } from 'zod';
import { searchBody } from '../../routes/search-routes.ts';
import { operation, pathGroup } from '../operation.ts';

const channelHit = z
  .object({
    rank: z.number().int(),
    score: z.number().optional().describe('The channel\'s raw score, for admins only: BM25 scores depend on statistics of documents others cannot read.'),
  })
  .strict();

export const searchResponseJson = z
  .object({
    query: z.string(),
    results: z.array(
      z
        .object({
          rank: z.number().int(),
          chunk_id: z.string().describe('`<doc_id>#<ordinal>`'),
          doc_id: z.string(),
          source: z.string(),
          page: z.number().int().nullable(),
          heading: z.string().describe('Heading path joined with ` › `.'),
          score: z.number(),
          text: z.string(),
          channels: z.object({ bm25: channelHit.optional(), vector: channelHit.optional() }).strict(),
          rerank_score: z.number().nullable(),
        })
        .strict(),
    ),
  })
  .strict();

export const searchPaths = pathGroup(
  { name: 'Search', description: 'Hybrid retrieval (BM25 and vectors, fused and reranked) as the key\'s principal.' },
  {
    '/v1/search': {
      post: operation({
        id: 'search',
        summary: 'Search the documents the key may see',
        description: 'The ACL filter is applied inside the store query, before ranking: results never include text the principal may not read.',
        access: 'key',
        json: searchBody,
        responses: {
          200: { description: 'Ranked results.', json: searchResponseJson },
          409: { description: 'The store\'s vectors were built by another embedder (`embedder_mismatch`).', json: { $ref: '#/components/schemas/Error' } },
        },
      }),
    },
  },
);
