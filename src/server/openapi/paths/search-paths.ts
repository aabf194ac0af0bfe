import { z } from 'zod';
import { searchBody } from '../../routes/search-routes.ts';
import { searchResultSchema } from '../../schemas/search-json.ts';
import { operation, pathGroup } from '../operation.ts';

export const searchResponseJson = z
  .object({
    query: z.string(),
    results: z.array(searchResultSchema.extend({ channels: searchResultSchema.shape.channels.strict() }).strict()),
  })
  .strict();

export const searchPaths = pathGroup(
  { name: 'Search', description: "Hybrid retrieval (BM25 and vectors, fused and reranked) as the key's principal." },
  {
    '/v1/search': {
      post: operation({
        id: 'search',
        summary: 'Search the documents the key may see',
        description:
          'The ACL filter is applied inside the store query, before ranking: results never include text the principal may not read.',
        access: 'key',
        json: searchBody,
        responses: {
          200: { description: 'Ranked results.', json: searchResponseJson },
          409: {
            description: "The store's vectors were built by another embedder (`embedder_mismatch`).",
            json: { $ref: '#/components/schemas/Error' },
          },
        },
      }),
    },
  },
);
